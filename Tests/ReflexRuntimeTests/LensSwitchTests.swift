import ReflexRuntime
import Testing

/// The lens switch's rules, on a clock the test gives: lens 0 shown (the wide), 1 the tele,
/// 2 a third lens.
@Suite("Lens switch")
struct LensSwitchTests {
    /// The switch under test, moved a step at a time; each step's answer returned (an
    /// #expect cannot call a mutating method itself).
    final class Driven {
        var lensSwitch = LensSwitch()
        func zoomAsks(for lens: Int, shown: Int, at now: Double) -> Bool { lensSwitch.zoomAsks(for: lens, shown: shown, at: now) }
        func standbyAnswered(_ answer: LensSwitch.StandbyAnswer, at now: Double) -> LensSwitch.Outcome? {
            lensSwitch.standbyAnswered(answer, at: now)
        }
        func frameHandedOver() -> LensSwitch.Outcome? { lensSwitch.frameHandedOver() }
        func timePassed(_ now: Double) -> LensSwitch.Outcome? { lensSwitch.timePassed(now) }
        func callOff() -> Bool { lensSwitch.callOff() }
    }

    @Test func aZoomOnTheLensShownIsNoSwitch() {
        let rig = Driven()
        #expect(!rig.zoomAsks(for: 0, shown: 0, at: 10))
        #expect(rig.lensSwitch.isSteady)
        #expect(rig.timePassed(1_000) == nil)
    }

    @Test func aCameraStreamingInStandbyIsAskedForItsNextFrameAndHandsItOver() {
        let rig = Driven()
        #expect(!rig.zoomAsks(for: 1, shown: 0, at: 10))
        #expect(rig.lensSwitch.state == .waitingForStart(lens: 1, until: 10 + LensSwitch.startPatience))
        #expect(rig.standbyAnswered(.streaming, at: 10.01) == nil)
        #expect(rig.lensSwitch.state == .waitingForFrame(lens: 1, until: 10.01 + LensSwitch.framePatience))
        #expect(rig.timePassed(10.02) == nil, "a frame of the lens shown later: still waiting")
        #expect(rig.frameHandedOver() == .handedOver(lens: 1))
        #expect(rig.lensSwitch.isSteady)
    }

    @Test func aCameraStillStartingIsWaitedForWhileTheLensShownStaysLive() {
        let rig = Driven()
        _ = rig.zoomAsks(for: 1, shown: 0, at: 10)
        #expect(rig.standbyAnswered(.starting, at: 10.5) == nil)
        #expect(rig.timePassed(10 + LensSwitch.startPatience) == nil, "at the deadline, not past it")
        #expect(rig.lensSwitch.isWaitingForStart)
        #expect(rig.standbyAnswered(.streaming, at: 12) == nil)
        #expect(rig.lensSwitch.isWaitingForFrame)
    }

    @Test func aCameraThatNeverStartsIsSwitchedToByARestart() {
        let rig = Driven()
        _ = rig.zoomAsks(for: 1, shown: 0, at: 10)
        #expect(rig.standbyAnswered(.starting, at: 11) == nil)
        #expect(rig.timePassed(10 + LensSwitch.startPatience + 0.001) == .restart(lens: 1, reason: .didNotStart))
        #expect(rig.lensSwitch.isSteady)
    }

    @Test func aCameraThatGivesNoFrameIsSwitchedToByARestart() {
        let rig = Driven()
        _ = rig.zoomAsks(for: 1, shown: 0, at: 10)
        _ = rig.standbyAnswered(.streaming, at: 10)
        #expect(rig.timePassed(10 + LensSwitch.framePatience + 0.001) == .restart(lens: 1, reason: .gaveNoFrame))
        #expect(rig.lensSwitch.isSteady)
        #expect(rig.frameHandedOver() == nil, "a frame after the restart began is not a handover")
    }

    @Test func noCameraInStandbyIsARestartAtOnce() {
        let rig = Driven()
        _ = rig.zoomAsks(for: 1, shown: 0, at: 10)
        #expect(rig.standbyAnswered(.absent, at: 10) == .restart(lens: 1, reason: .notInStandby))
        #expect(rig.lensSwitch.isSteady)
    }

    @Test func aZoomThatGoesBackCallsTheSwitchOff() {
        let rig = Driven()
        _ = rig.zoomAsks(for: 1, shown: 0, at: 10)
        _ = rig.standbyAnswered(.streaming, at: 10)
        #expect(rig.zoomAsks(for: 0, shown: 0, at: 10.1), "called off: the standby takes back what it handed over")
        #expect(rig.lensSwitch.isSteady)
        #expect(rig.frameHandedOver() == nil)
        #expect(rig.timePassed(100) == nil)
    }

    @Test func theSameLensAskedAgainKeepsItsDeadline() {
        let rig = Driven()
        _ = rig.zoomAsks(for: 1, shown: 0, at: 10)
        #expect(!rig.zoomAsks(for: 1, shown: 0, at: 14))
        #expect(rig.lensSwitch.state == .waitingForStart(lens: 1, until: 10 + LensSwitch.startPatience))
    }

    @Test func aThirdLensAskedMidSwitchReplacesTheFirst() {
        let rig = Driven()
        _ = rig.zoomAsks(for: 1, shown: 0, at: 10)
        _ = rig.standbyAnswered(.streaming, at: 10)
        #expect(rig.zoomAsks(for: 2, shown: 0, at: 10.1), "the tele's handover called off")
        #expect(rig.lensSwitch.state == .waitingForStart(lens: 2, until: 10.1 + LensSwitch.startPatience))
        #expect(rig.standbyAnswered(.absent, at: 10.2) == .restart(lens: 2, reason: .notInStandby))
    }

    @Test func anAnswerWhenNotWaitingForAStartChangesNothing() {
        let rig = Driven()
        #expect(rig.standbyAnswered(.streaming, at: 10) == nil)
        #expect(rig.lensSwitch.isSteady)
        _ = rig.zoomAsks(for: 1, shown: 0, at: 10)
        _ = rig.standbyAnswered(.streaming, at: 10)
        #expect(rig.standbyAnswered(.absent, at: 10.1) == nil, "asked already: waiting for its frame")
        #expect(rig.lensSwitch.isWaitingForFrame)
    }

    @Test func aLostCameraCallsOffASwitchUnderWay() {
        let rig = Driven()
        #expect(!rig.callOff())
        _ = rig.zoomAsks(for: 1, shown: 0, at: 10)
        #expect(rig.callOff())
        #expect(rig.lensSwitch.isSteady)
    }
}
