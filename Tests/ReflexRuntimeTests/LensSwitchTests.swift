import ReflexRuntime
import Testing

/// The lens switch's rules, on a clock the test gives: lens 0 shown (the wide), 1 the tele,
/// 2 a third lens.
@Suite("Lens switch")
struct LensSwitchTests {
    @Test func aZoomOnTheLensShownIsNoSwitch() {
        var lensSwitch = LensSwitch()
        let answer1 = lensSwitch.zoomAsks(for: 0, shown: 0, at: 10)
        #expect(!answer1)
        #expect(lensSwitch.isSteady)
        let answer2 = lensSwitch.timePassed(1_000)
        #expect(answer2 == nil)
    }

    @Test func aCameraStreamingInStandbyIsAskedForItsNextFrameAndHandsItOver() {
        var lensSwitch = LensSwitch()
        let answer3 = lensSwitch.zoomAsks(for: 1, shown: 0, at: 10)
        #expect(!answer3)
        #expect(lensSwitch.state == .waitingForStart(lens: 1, until: 10 + LensSwitch.startPatience))
        let answer4 = lensSwitch.standbyAnswered(.streaming, at: 10.01)
        #expect(answer4 == nil)
        #expect(lensSwitch.state == .waitingForFrame(lens: 1, until: 10.01 + LensSwitch.framePatience))
        let answer5 = lensSwitch.timePassed(10.02)
        #expect(answer5 == nil, "a frame of the lens shown later: still waiting")
        let answer6 = lensSwitch.frameHandedOver()
        #expect(answer6 == .handedOver(lens: 1))
        #expect(lensSwitch.isSteady)
    }

    @Test func aCameraStillStartingIsWaitedForWhileTheLensShownStaysLive() {
        var lensSwitch = LensSwitch()
        _ = lensSwitch.zoomAsks(for: 1, shown: 0, at: 10)
        let answer7 = lensSwitch.standbyAnswered(.starting, at: 10.5)
        #expect(answer7 == nil)
        let answer8 = lensSwitch.timePassed(10 + LensSwitch.startPatience)
        #expect(answer8 == nil, "at the deadline, not past it")
        #expect(lensSwitch.isWaitingForStart)
        let answer9 = lensSwitch.standbyAnswered(.streaming, at: 12)
        #expect(answer9 == nil)
        #expect(lensSwitch.isWaitingForFrame)
    }

    @Test func aCameraThatNeverStartsIsSwitchedToByARestart() {
        var lensSwitch = LensSwitch()
        _ = lensSwitch.zoomAsks(for: 1, shown: 0, at: 10)
        let answer10 = lensSwitch.standbyAnswered(.starting, at: 11)
        #expect(answer10 == nil)
        let answer11 = lensSwitch.timePassed(10 + LensSwitch.startPatience + 0.001)
        #expect(answer11 == .restart(lens: 1, reason: .didNotStart))
        #expect(lensSwitch.isSteady)
    }

    @Test func aCameraThatGivesNoFrameIsSwitchedToByARestart() {
        var lensSwitch = LensSwitch()
        _ = lensSwitch.zoomAsks(for: 1, shown: 0, at: 10)
        _ = lensSwitch.standbyAnswered(.streaming, at: 10)
        let answer12 = lensSwitch.timePassed(10 + LensSwitch.framePatience + 0.001)
        #expect(answer12 == .restart(lens: 1, reason: .gaveNoFrame))
        #expect(lensSwitch.isSteady)
        let answer13 = lensSwitch.frameHandedOver()
        #expect(answer13 == nil, "a frame after the restart began is not a handover")
    }

    @Test func noCameraInStandbyIsARestartAtOnce() {
        var lensSwitch = LensSwitch()
        _ = lensSwitch.zoomAsks(for: 1, shown: 0, at: 10)
        let answer14 = lensSwitch.standbyAnswered(.absent, at: 10)
        #expect(answer14 == .restart(lens: 1, reason: .notInStandby))
        #expect(lensSwitch.isSteady)
    }

    @Test func aZoomThatGoesBackCallsTheSwitchOff() {
        var lensSwitch = LensSwitch()
        _ = lensSwitch.zoomAsks(for: 1, shown: 0, at: 10)
        _ = lensSwitch.standbyAnswered(.streaming, at: 10)
        let answer15 = lensSwitch.zoomAsks(for: 0, shown: 0, at: 10.1)
        #expect(answer15, "called off: the standby takes back what it handed over")
        #expect(lensSwitch.isSteady)
        let answer16 = lensSwitch.frameHandedOver()
        #expect(answer16 == nil)
        let answer17 = lensSwitch.timePassed(100)
        #expect(answer17 == nil)
    }

    @Test func theSameLensAskedAgainKeepsItsDeadline() {
        var lensSwitch = LensSwitch()
        _ = lensSwitch.zoomAsks(for: 1, shown: 0, at: 10)
        let answer18 = lensSwitch.zoomAsks(for: 1, shown: 0, at: 14)
        #expect(!answer18)
        #expect(lensSwitch.state == .waitingForStart(lens: 1, until: 10 + LensSwitch.startPatience))
    }

    @Test func aThirdLensAskedMidSwitchReplacesTheFirst() {
        var lensSwitch = LensSwitch()
        _ = lensSwitch.zoomAsks(for: 1, shown: 0, at: 10)
        _ = lensSwitch.standbyAnswered(.streaming, at: 10)
        let answer19 = lensSwitch.zoomAsks(for: 2, shown: 0, at: 10.1)
        #expect(answer19, "the tele's handover called off")
        #expect(lensSwitch.state == .waitingForStart(lens: 2, until: 10.1 + LensSwitch.startPatience))
        let answer20 = lensSwitch.standbyAnswered(.absent, at: 10.2)
        #expect(answer20 == .restart(lens: 2, reason: .notInStandby))
    }

    @Test func anAnswerWhenNotWaitingForAStartChangesNothing() {
        var lensSwitch = LensSwitch()
        let answer21 = lensSwitch.standbyAnswered(.streaming, at: 10)
        #expect(answer21 == nil)
        #expect(lensSwitch.isSteady)
        _ = lensSwitch.zoomAsks(for: 1, shown: 0, at: 10)
        _ = lensSwitch.standbyAnswered(.streaming, at: 10)
        let answer22 = lensSwitch.standbyAnswered(.absent, at: 10.1)
        #expect(answer22 == nil, "asked already: waiting for its frame")
        #expect(lensSwitch.isWaitingForFrame)
    }

    @Test func aLostCameraCallsOffASwitchUnderWay() {
        var lensSwitch = LensSwitch()
        let answer23 = lensSwitch.callOff()
        #expect(!answer23)
        _ = lensSwitch.zoomAsks(for: 1, shown: 0, at: 10)
        let answer24 = lensSwitch.callOff()
        #expect(answer24)
        #expect(lensSwitch.isSteady)
    }
}
