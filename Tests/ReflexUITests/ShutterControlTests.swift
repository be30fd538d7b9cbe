import ReflexCore
import ReflexISP
import ReflexUI
import Testing

/// The shutter's rules: the button, the keys' full and half press, the format badge.
@Suite struct ShutterControlTests {
    static let layout = InterfaceControllerTests.layout
    static let metered = InterfaceControllerTests.metered

    @Test func theButtonFiresAsTheFingerComesDownInBothModes() {
        for mode in ShootingMode.allCases {
            var settings = CameraSettings()
            settings.mode = mode
            var c = InterfaceControllerTests.controller(settings)
            let (x, y) = InterfaceControllerTests.centre(Self.layout.shutterButton)
            let down = c.handle(.touchDown(slot: 0, x: x, y: y), at: 12.5, metered: Self.metered)
            #expect(down.capture == 12.5, "the press's own time, in \(mode)")
            let up = c.handle(.touchUp(slot: 0), at: 12.6, metered: Self.metered)
            #expect(up.capture == nil, "one photo a press")
        }
    }

    @Test func theShutterKeysFullPressTakesAndHalfPressLocks() {
        var c = InterfaceControllerTests.controller()
        #expect(c.handle(.key(code: KeyCode.camera, pressed: true), at: 3, metered: Self.metered).capture == 3)
        #expect(c.handle(.key(code: KeyCode.camera, pressed: false), at: 3.1, metered: Self.metered).capture == nil)
        let half = c.handle(.key(code: KeyCode.cameraFocus, pressed: true), at: 4, metered: Self.metered)
        #expect(half.lockChanged && c.locked)
        #expect(!c.handle(.key(code: KeyCode.cameraFocus, pressed: true), at: 4.1, metered: Self.metered).lockChanged,
                "a repeat changes nothing")
        let release = c.handle(.key(code: KeyCode.cameraFocus, pressed: false), at: 5, metered: Self.metered)
        #expect(release.lockChanged && !c.locked)
    }

    @Test func theBoardCanNameOtherKeys() throws {
        let controls = try BoardControls.parse("shutter-key = 257\nhalf-press-key = BTN_2\n").get()
        var c = InterfaceControllerTests.controller()
        c.controls = controls
        #expect(c.handle(.key(code: KeyCode.camera, pressed: true), at: 1, metered: Self.metered).capture == nil)
        #expect(c.handle(.key(code: 257, pressed: true), at: 2, metered: Self.metered).capture == 2)
        #expect(c.handle(.key(code: 258, pressed: true), at: 3, metered: Self.metered).lockChanged)
        #expect(throws: Never.self) { try BoardControls.parse("# none\n").get() }
        #expect((try? BoardControls.parse("shutter-key = zero\n").get()) == nil)
        #expect((try? BoardControls.parse("fire-key = 1\n").get()) == nil)
    }

    @Test func aTapOnTheFormatBadgeStepsThroughWhatTheCameraOffers() {
        var c = InterfaceControllerTests.controller()
        var seen: [CaptureFormat] = []
        for step in 0..<5 {
            let outcome = InterfaceControllerTests.tap(&c, Self.layout.formatBadge, at: Double(step))
            #expect(outcome.settingsChanged && outcome.haptic == .confirm, "confirmed under the finger")
            seen.append(c.model.settings.format)
        }
        #expect(seen == [.raw, .rawPlusJPEG, .enhancedRaw, .enhancedRawPlusJPEG, .jpeg])
        // A board whose stills switch modes has no Enhanced RAW: past RAW+JPEG comes JPEG,
        // with the reason.
        var limits = SensorLimits.unlimited
        limits.enhancedRawUnavailable = SensorLimits.stillsSwitchModes
        var switching = InterfaceController(model: CameraModel(settings: CameraSettings(), limits: limits), layout: Self.layout,
                                            now: 0)
        var notices: [String?] = []
        for step in 0..<3 {
            notices.append(InterfaceControllerTests.tap(&switching, Self.layout.formatBadge, at: Double(step)).notice)
        }
        #expect(switching.model.settings.format == .jpeg)
        #expect(notices == [nil, nil, SensorLimits.stillsSwitchModes])
        // A camera without raw frames offers JPEG only: the badge does nothing.
        var noRaw = InterfaceController(model: CameraModel(settings: CameraSettings(), limits: SensorLimits(
            isoRange: 100...1600, exposureRange: 0.001...0.1, hasFocusControl: false, hasRawFormat: false)),
                                        layout: Self.layout, now: 0)
        let refused = InterfaceControllerTests.tap(&noRaw, Self.layout.formatBadge, at: 1)
        #expect(!refused.settingsChanged)
        #expect(refused.notice == InterfaceText.rawUnavailable, "the reason, in one line")
        #expect(noRaw.model.settings.format == .jpeg)
    }
}
