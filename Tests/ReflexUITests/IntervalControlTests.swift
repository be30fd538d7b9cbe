import ReflexCore
import ReflexUI
import Testing

/// The Interval drive at the shutter (issue 37, part 4): a press starts the run, its shots
/// are taken at their planned times (whatever the loop's turns), the chip counts them down,
/// and the run ends at its count, on a second press, or when the camera stops it.
@Suite struct IntervalControlTests {
    static let metered = InterfaceControllerTests.metered

    static func interval(every seconds: Int, count: Int?, delay: Int = 0) -> InterfaceController {
        var settings = CameraSettings()
        settings.drive.mode = .interval
        (settings.drive.intervalSeconds, settings.drive.intervalCount, settings.drive.intervalDelaySeconds) = (seconds, count, delay)
        return InterfaceControllerTests.controller(settings)
    }

    /// The loop's turns from `start` to `end`, a frame apart: the shots taken.
    static func run(_ c: inout InterfaceController, from start: Double, to end: Double) -> [Double] {
        var shots: [Double] = []
        var frame = 0
        while true {
            let now = start + Double(frame) / 60
            guard now < end else { return shots }
            while let due = c.nextTimedPhoto(at: now) { shots.append(due) }
            frame += 1
        }
    }

    @Test func aPressStartsARunWhoseShotsComeAtTheirPlannedTimes() {
        var c = Self.interval(every: 2, count: 5, delay: 3)
        let press = SelfTimerControlTests.press(&c, at: 100)
        #expect(press.capture == nil && press.haptic == .confirm, "the start is felt; no photo at the press")
        #expect(press.notice == "Interval: every 2s, 5 shots")
        let shots = Self.run(&c, from: 100, to: 120)
        #expect(shots == [103, 105, 107, 109, 111], "the first after the delay, then every 2 s, each at its own time")
        #expect(c.intervalRun == nil, "ended at its count")
        #expect(c.takeIntervalEnding() == "Interval done: 5 shots")
        #expect(c.takeIntervalEnding() == nil, "said once")
    }

    @Test func aSecondPressStopsTheRunKeepingItsShots() {
        var c = Self.interval(every: 1, count: nil)
        _ = SelfTimerControlTests.press(&c, at: 0)
        #expect(Self.run(&c, from: 0, to: 3.5) == [0, 1, 2, 3])
        let stop = SelfTimerControlTests.press(&c, at: 3.6)
        #expect(stop.notice == "Interval stopped: 4 shots" && stop.capture == nil)
        #expect(c.intervalRun == nil && Self.run(&c, from: 3.6, to: 10).isEmpty)
    }

    @Test func aLoopThatStalledTakesTheNewestShotAndCountsTheOthersMissed() {
        var c = Self.interval(every: 1, count: 10)
        _ = SelfTimerControlTests.press(&c, at: 0)
        #expect(Self.run(&c, from: 0, to: 1.5) == [0, 1])
        // Nothing for four seconds (a stalled loop): one shot, the newest planned.
        var late: [Double] = []
        while let due = c.nextTimedPhoto(at: 5.2) { late.append(due) }
        #expect(late == [5])
        #expect(c.intervalRun?.missed == 3 && c.intervalRun?.taken == 3)
    }

    @Test func theCameraStopsItWithItsReason() {
        var c = Self.interval(every: 10, count: 100)
        _ = SelfTimerControlTests.press(&c, at: 0)
        _ = Self.run(&c, from: 0, to: 25)
        c.stopInterval(because: "the card is full")
        #expect(c.intervalRun == nil && c.takeIntervalEnding() == "Interval stopped – the card is full: 3 shots")
    }

    @Test func changingTheDriveEndsTheRun() {
        var c = Self.interval(every: 1, count: nil)
        _ = SelfTimerControlTests.press(&c, at: 0)
        #expect(Self.run(&c, from: 0, to: 0.5) == [0])
        _ = c.handleRemote(.drive(.single), at: 0.6, metered: InterfaceControllerTests.metered)
        #expect(c.nextTimedPhoto(at: 5) == nil && c.intervalRun == nil)
        #expect(c.takeIntervalEnding() == "Interval stopped – the drive changed: 1 shot")
    }

    @Test func theChipCountsShotsAndTheSecondsToTheNext() throws {
        var c = Self.interval(every: 90, count: 300)
        _ = SelfTimerControlTests.press(&c, at: 0)
        _ = Self.run(&c, from: 0, to: 0.5)
        let run = try #require(c.intervalRun)
        let progress = IntervalProgress(run, at: 0.5)
        #expect(progress == IntervalProgress(taken: 1, count: 300, secondsToNext: 90))
        #expect(InterfaceText.intervalProgress(progress) == "INT 1/300 · 1m30s")
        #expect(IntervalProgress.nextChange(of: run, after: 0.5) == 1, "the shown seconds change on the second")
        #expect(InterfaceText.intervalProgress(IntervalProgress(taken: 7, count: nil, secondsToNext: 4)) == "INT 7 · 4s")
    }

    @Test func aCardTooSmallForTheRunIsSaid() {
        #expect(InterfaceText.intervalShortfall(fits: 40, of: 300) == "Card holds only 40 shots of 300")
    }
}

/// An interval run's screen dims after `dimAfter` seconds without input, and the first
/// press, touch or turn only wakes it: the shutter pressed to see the screen does not stop
/// the run.
@Suite struct IntervalDimmingTests {
    @Test func theScreenDimsBetweenShotsAndTheFirstInputOnlyWakesIt() {
        var c = IntervalControlTests.interval(every: 60, count: 10)
        #expect(!c.screenDimmed(at: 1_000), "no run, never dimmed")
        _ = SelfTimerControlTests.press(&c, at: 0)
        #expect(!c.screenDimmed(at: DriveControl.dimAfter - 0.5))
        #expect(c.screenDimmed(at: DriveControl.dimAfter + 0.2))
        let woke = SelfTimerControlTests.press(&c, at: 20)
        #expect(woke.notice == nil && woke.haptic == nil && c.intervalRun != nil, "the press only woke the screen")
        #expect(!c.screenDimmed(at: 20.5))
        let stop = SelfTimerControlTests.press(&c, at: 21)
        #expect(stop.notice?.hasPrefix("Interval stopped") == true, "awake, the shutter stops the run")
        #expect(!c.screenDimmed(at: 100), "no run, never dimmed")
    }

    @Test func aTurnOrATouchWakesItToo() {
        var c = IntervalControlTests.interval(every: 60, count: 10)
        _ = SelfTimerControlTests.press(&c, at: 0)
        let turned = c.handle(.wheel(wheel: 0, v120: 120), at: 30, metered: IntervalControlTests.metered)
        #expect(turned.ticks == 0 && !c.screenDimmed(at: 30.1))
        let layout = InterfaceControllerTests.layout
        let (x, y) = InterfaceControllerTests.centre(layout.menuButton)
        _ = c.handle(.touchDown(slot: 0, x: x, y: y), at: 50, metered: IntervalControlTests.metered)
        _ = c.handle(.touchUp(slot: 0), at: 50.05, metered: IntervalControlTests.metered)
        #expect(!c.menu.isOpen, "the touch that woke the screen opened nothing")
        #expect(!c.screenDimmed(at: 51))
    }

    /// Each run has a number its photos carry; a run that ended having taken photos is
    /// handed on once (its timelapse is made of them), one that took none is not.
    @Test func anEndedRunIsHandedOnOnceWithItsPhotos() {
        var c = IntervalControlTests.interval(every: 2, count: 3)
        _ = SelfTimerControlTests.press(&c, at: 10)
        #expect(c.nextTimedPhoto(at: 10) == 10 && c.timedPhotoRun == 1)
        #expect(c.takeEndedRun() == nil, "still running")
        _ = IntervalControlTests.run(&c, from: 10.1, to: 20)
        #expect(c.takeEndedRun() == DriveControl.EndedRun(run: 1, photos: 3))
        #expect(c.takeEndedRun() == nil, "once")
        // A second run stopped before its first photo: nothing to make a movie of.
        var d = IntervalControlTests.interval(every: 2, count: 3, delay: 5)
        _ = SelfTimerControlTests.press(&d, at: 10)
        _ = SelfTimerControlTests.press(&d, at: 11)
        #expect(d.intervalRun == nil && d.takeEndedRun() == nil)
        // Stopped by a press after two photos: those two.
        _ = SelfTimerControlTests.press(&d, at: 12)
        _ = IntervalControlTests.run(&d, from: 12, to: 19.5)
        _ = SelfTimerControlTests.press(&d, at: 20)
        #expect(d.takeEndedRun() == DriveControl.EndedRun(run: 2, photos: 2))
    }
}
