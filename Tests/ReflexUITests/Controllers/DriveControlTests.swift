@testable import ReflexUI
import ReflexCore
import Testing

/// The drives' own rules, without the router: what a press is in each drive and the photos
/// the drive takes by itself.
@Suite("Drive control")
struct DriveControlTests {
    static func drive(_ mode: DriveMode, _ change: (inout DriveSettings) -> Void = { _ in }) -> DriveSettings {
        var drive = DriveSettings()
        drive.mode = mode
        change(&drive)
        return drive
    }

    @Test func singleTakesOnePhotoAtThePressAndBurstHoldsOn() {
        var control = DriveControl(), outcome = InterfaceController.Outcome()
        control.press(drive: Self.drive(.single), burstAllowed: true, at: 1, into: &outcome)
        let after = control.nextBurstPhoto(at: 2)
        #expect(outcome.capture == 1 && after == nil)
        outcome = InterfaceController.Outcome()
        control.press(drive: Self.drive(.burst), burstAllowed: true, at: 3, into: &outcome)
        #expect(outcome.capture == 3)
        let held = control.nextBurstPhoto(at: 3.25)
        #expect(held != nil, "held: the burst goes on")
        control.release(at: 3.3)
        while control.nextBurstPhoto(at: 3.3) != nil {}
        let later = control.nextBurstPhoto(at: 5)
        #expect(later == nil, "let go: it ends")
    }

    @Test func aBurstWhereHeldPressesCannotTakeOneIsOnePhoto() {
        var control = DriveControl(), outcome = InterfaceController.Outcome()
        control.press(drive: Self.drive(.burst), burstAllowed: false, at: 1, into: &outcome)
        let next = control.nextBurstPhoto(at: 2)
        #expect(outcome.capture == 1 && next == nil)
    }

    @Test func theSelfTimerCountsDownAndASecondPressCancelsIt() {
        var control = DriveControl(), outcome = InterfaceController.Outcome()
        let twoSeconds = Self.drive(.selfTimer) { $0.selfTimer = .twoSeconds }
        control.press(drive: twoSeconds, burstAllowed: true, at: 0, into: &outcome)
        #expect(outcome.capture == nil && outcome.confirmed && control.selfTimer != nil)
        let early = control.nextTimedPhoto(at: 1, settings: CameraSettings())
        let due = control.nextTimedPhoto(at: 2.1, settings: CameraSettings())
        #expect(early == nil && due == 2, "the photo at its planned time")
        outcome = InterfaceController.Outcome()
        control.press(drive: twoSeconds, burstAllowed: true, at: 5, into: &outcome)
        control.press(drive: twoSeconds, burstAllowed: true, at: 5.5, into: &outcome)
        #expect(control.selfTimer == nil && outcome.notice == InterfaceText.selfTimerCancelled)
    }

    @Test func anIntervalRunStartsStopsAndLeavesItsTimelapseOnce() {
        var control = DriveControl(), outcome = InterfaceController.Outcome()
        let everySecond = Self.drive(.interval) { ($0.intervalSeconds, $0.intervalCount) = (1, nil) }
        var settings = CameraSettings()
        settings.drive = everySecond
        control.press(drive: everySecond, burstAllowed: true, at: 0, into: &outcome)
        #expect(control.intervalRun != nil && control.intervalRunsStarted == 1)
        let first = control.nextTimedPhoto(at: 0, settings: settings)
        #expect(first == 0 && control.timedPhotoRun == 1)
        let second = control.nextTimedPhoto(at: 1, settings: settings)
        #expect(second == 1)
        #expect(control.screenDimmed(at: 15), "nothing touched since the run began: dimmed")
        control.noteInput(at: 20)
        #expect(!control.screenDimmed(at: 25), "touched: awake")
        control.stopInterval(because: "the card is full")
        let (ending, endingAgain) = (control.takeIntervalEnding(), control.takeIntervalEnding())
        #expect(control.intervalRun == nil && ending != nil && endingAgain == nil)
        let (ended, endedAgain) = (control.takeEndedRun(), control.takeEndedRun())
        #expect(ended == DriveControl.EndedRun(run: 1, photos: 2))
        #expect(endedAgain == nil, "once")
    }

    @Test func aRunEndsWhenTheMenuChangesTheDrive() {
        var control = DriveControl(), outcome = InterfaceController.Outcome()
        control.press(drive: Self.drive(.interval), burstAllowed: true, at: 0, into: &outcome)
        let due = control.nextTimedPhoto(at: 1, settings: CameraSettings())
        #expect(due == nil, "the settings' drive is Single now")
        #expect(control.intervalRun == nil)
    }
}
