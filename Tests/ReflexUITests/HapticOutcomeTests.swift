import ReflexCore
import ReflexUI
import Testing

/// What the hand feels for each kind of event (docs/camera.md, The controls: a tick per stop, resistance at the
/// limits; a confirmation on mode and format switches and on the shutter).
@Suite struct HapticOutcomeTests {
    static let layout = InterfaceControllerTests.layout
    static let metered = InterfaceControllerTests.metered

    static func pro() -> InterfaceController {
        var settings = CameraSettings()
        settings.mode = .pro
        return InterfaceControllerTests.controller(settings)
    }

    @Test func aDetentIsATickAndABoundIsABump() {
        var c = Self.pro()
        // One detent of the first dial: ISO Auto (metered 400) → 500, a tick.
        let turn = c.handle(.wheel(wheel: 0, v120: 120), at: 1, metered: Self.metered)
        #expect(turn.haptic == .tick)
        // Far past the top of the range: the last steps push against the bound.
        var last = InterfaceController.Outcome()
        for step in 0..<80 { last = c.handle(.wheel(wheel: 0, v120: 120), at: 2 + Double(step), metered: Self.metered) }
        #expect(last.bumped && last.haptic == .bump, "resistance at the limit")
    }

    @Test func switchesAreConfirmedAndTheShutterIsItsOwnPulse() {
        var c = InterfaceControllerTests.controller()
        #expect(InterfaceControllerTests.tap(&c, Self.layout.modeToggle, at: 1).haptic == .confirm)
        #expect(InterfaceControllerTests.tap(&c, Self.layout.formatBadge, at: 2).haptic == .confirm)
        #expect(c.handle(.key(code: KeyCode.camera, pressed: true), at: 3, metered: Self.metered).haptic == .shutter)
        let (x, y) = InterfaceControllerTests.centre(Self.layout.shutterButton)
        #expect(c.handle(.touchDown(slot: 0, x: x, y: y), at: 4, metered: Self.metered).haptic == .shutter)
        // A touch on the picture, a key the camera does not use: nothing to feel.
        #expect(c.handle(.touchUp(slot: 0), at: 4.1, metered: Self.metered).haptic == nil)
        #expect(c.handle(.key(code: 30, pressed: true), at: 5, metered: Self.metered).haptic == nil)
    }

    @Test func ofTwoInOneFrameTheStrongerIsFelt() {
        #expect(HapticEffect.stronger(.tick, .bump) == .bump)
        #expect(HapticEffect.stronger(.shutter, .bump) == .shutter)
        #expect(HapticEffect.stronger(nil, .confirm) == .confirm)
        #expect(HapticEffect.stronger(.tick, nil) == .tick)
        #expect(HapticEffect.stronger(nil, nil) == nil)
        for effect in HapticEffect.allCases {
            #expect(effect.milliseconds <= 50, "short enough to stay apart at 60 Hz ticks")
            #expect(effect.strongMagnitude > 0 || effect.weakMagnitude > 0)
        }
    }
}

/// The save problem's banner answers touches only while it is on screen.
@Suite struct SaveAnswerTests {
    @Test func retryAndDiscardAreTheBannersAnswers() {
        let layout = InterfaceControllerTests.layout
        var c = InterfaceControllerTests.controller()
        #expect(InterfaceControllerTests.tap(&c, layout.retryButton, at: 1).saveDecision == nil, "no banner, no answer")
        c.saveProblemShown = true
        let retry = InterfaceControllerTests.tap(&c, layout.retryButton, at: 2)
        #expect(retry.saveDecision == .retry && retry.haptic == .confirm)
        #expect(InterfaceControllerTests.tap(&c, layout.discardButton, at: 3).saveDecision == .discard)
        // The banner covers the top of the picture, never the shutter or the toggle.
        for answer in [layout.retryButton, layout.discardButton] {
            #expect(answer.x >= layout.saveBanner.x && answer.x + answer.width <= layout.saveBanner.x + layout.saveBanner.width)
            #expect(answer.y + answer.height <= layout.saveBanner.y + layout.saveBanner.height)
            #expect(answer.y + answer.height < layout.shutterButton.y)
        }
    }
}

/// A held shutter bursts in the Burst drive, except where each photo switches the sensor's
/// mode; in Single it takes one photo a press.
@Suite struct HeldShutterTests {
    @Test func holdingTheKeyBurstsUnlessStillsComeFromAModeSwitch() {
        var c = InterfaceControllerTests.controller(drive: .burst)
        _ = c.handle(.key(code: KeyCode.camera, pressed: true), at: 1, metered: InterfaceControllerTests.metered)
        var due: [Double] = []
        while let time = c.nextBurstPhoto(at: 1.5) { due.append(time) }
        #expect(due.count == 5, "0.1 s apart from the press: \(due)")
        _ = c.handle(.key(code: KeyCode.camera, pressed: false), at: 1.5, metered: InterfaceControllerTests.metered)
        var switching = InterfaceControllerTests.controller(drive: .burst)
        switching.burstAllowed = false
        _ = switching.handle(.key(code: KeyCode.camera, pressed: true), at: 1, metered: InterfaceControllerTests.metered)
        #expect(switching.nextBurstPhoto(at: 3) == nil, "one photo, however long the hold")
        var single = InterfaceControllerTests.controller()
        let press = single.handle(.key(code: KeyCode.camera, pressed: true), at: 1, metered: InterfaceControllerTests.metered)
        #expect(press.capture == 1 && single.nextBurstPhoto(at: 3) == nil, "Single: one photo, however long the hold")
    }
}
