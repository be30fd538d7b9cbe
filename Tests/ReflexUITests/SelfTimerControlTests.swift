import ReflexCore
import ReflexUI
import Testing

/// The Self-timer drive at the shutter (issue 37, part 2): a press starts the countdown, each
/// second is announced once, the photo is taken at its second (its own time, whatever the
/// loop's), and a second press or a tap anywhere stops it.
@Suite struct SelfTimerControlTests {
    static let metered = InterfaceControllerTests.metered

    static func timer(_ delay: SelfTimerDelay) -> InterfaceController {
        var settings = CameraSettings()
        settings.drive.mode = .selfTimer
        settings.drive.selfTimer = delay
        return InterfaceControllerTests.controller(settings)
    }

    static func press(_ c: inout InterfaceController, at time: Double) -> InterfaceController.Outcome {
        let outcome = c.handle(.key(code: KeyCode.camera, pressed: true), at: time, metered: metered)
        _ = c.handle(.key(code: KeyCode.camera, pressed: false), at: time + 0.1, metered: metered)
        return outcome
    }

    @Test func aPressCountsDownAndThePhotoIsTakenAtItsSecond() {
        var c = Self.timer(.tenSeconds)
        let press = Self.press(&c, at: 100)
        #expect(press.capture == nil && press.haptic == .confirm, "no photo at the press; the start is felt")
        // The loop's turns, a frame apart: each second announced once, 10 down to 1.
        var announced: [Int] = [], shots: [Double] = []
        var now = 100.0
        while now < 111 {
            if let left = c.countdownAnnouncement(at: now) { announced.append(left) }
            while let due = c.nextTimedPhoto(at: now) { shots.append(due) }
            now += 1.0 / 60
        }
        #expect(announced == Array((1...10).reversed()))
        #expect(shots == [110], "at its own second, the zero-lag ring's frame of that moment")
        #expect(c.selfTimer == nil, "the timer ends with its photo")
        // Held for a long time, the key takes nothing more (no burst in this drive).
        #expect(c.nextBurstPhoto(at: 120) == nil)
    }

    @Test func threeShotsASecondApart() {
        var c = Self.timer(.tenSecondsThreeShots)
        _ = Self.press(&c, at: 0)
        var shots: [Double] = []
        for frame in 0...800 { while let due = c.nextTimedPhoto(at: Double(frame) / 60) { shots.append(due) } }
        #expect(shots == [10, 11, 12])
    }

    @Test func aSecondPressOrATapStopsIt() {
        var c = Self.timer(.twoSeconds)
        _ = Self.press(&c, at: 0)
        let again = Self.press(&c, at: 1)
        #expect(c.selfTimer == nil && again.capture == nil && again.notice == InterfaceText.selfTimerCancelled)
        #expect(c.nextTimedPhoto(at: 5) == nil)
        // Started again, then a tap on the picture: stopped, and the tap does nothing else.
        _ = Self.press(&c, at: 10)
        let layout = InterfaceControllerTests.layout
        let (x, y) = InterfaceControllerTests.centre(layout.menuButton)
        let down = c.handle(.touchDown(slot: 0, x: x, y: y), at: 11, metered: Self.metered)
        _ = c.handle(.touchUp(slot: 0), at: 11.05, metered: Self.metered)
        #expect(c.selfTimer == nil && down.notice == InterfaceText.selfTimerCancelled)
        #expect(!c.menu.isOpen, "the tap that stopped the countdown did not open the menu")
        #expect(c.nextTimedPhoto(at: 20) == nil)
    }

    @Test func inVideoTheShutterStillRecordsAtOnce() {
        var c = Self.timer(.twoSeconds)
        var settings = c.model.settings
        settings.capture = .video
        c = InterfaceControllerTests.controller(settings)
        let press = Self.press(&c, at: 0)
        #expect(press.record && c.selfTimer == nil)
    }
}
