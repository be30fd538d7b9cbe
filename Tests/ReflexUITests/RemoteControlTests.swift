import ReflexCore
import ReflexISP
import ReflexUI
import Testing

/// A phone's controls (issue 54) read from the page's form, and carried out by the interface's
/// own rules: the shutter is the shutter key, a dial turns only in Pro, a format the camera
/// cannot give is refused with the camera's words, a tap meters as a finger does.
@Suite struct RemoteControlTests {
    static let metered = InterfaceControllerTests.metered

    @Test func theFormsThePagePostsAreRead() {
        func control(_ form: String) -> RemoteControl? { FormFields.parse(Array(form.utf8)).flatMap(RemoteControl.init(form:)) }
        #expect(control("action=shutter&pressed=1") == .shutter(pressed: true))
        #expect(control("pressed=0&action=shutter") == .shutter(pressed: false))
        #expect(control("action=turn&dial=wb&steps=-3") == .turn(.whiteBalance, steps: -3))
        #expect(control("action=format&format=raw%2Bjpeg") == .format(.rawPlusJPEG))
        #expect(control("action=ev&thirds=-4") == .exposureCompensation(ExposureCompensation(thirds: -4)))
        #expect(control("action=tap&x=0.25&y=1") == .tap(x: 0.25, y: 1))
        #expect(control("action=mode&mode=pro") == .mode(.pro) && control("action=record") == .record)
        #expect(control("action=drive&drive=self-timer") == .drive(.selfTimer))
        #expect(control("action=self-timer&delay=10s-3") == .selfTimer(.tenSecondsThreeShots))
        #expect(control("action=interval&seconds=90") == .interval(seconds: 90))
        #expect(control("action=zoom&factor=2.5") == .zoom(2.5) && control("action=auto-zoom&on=1") == .autoZoom(true))
        for refused in ["", "action=", "action=shutter", "action=shutter&pressed=yes", "action=turn&dial=iso&steps=0",
                        "action=turn&dial=iso&steps=21", "action=turn&dial=zoom&steps=1", "action=format&format=raw+jpeg",
                        "action=ev&thirds=10", "action=tap&x=1.5&y=0", "action=tap&x=nan&y=0", "action=fly",
                        "action=shutter&pressed=%", "action=shutter&pressed=%G1", "action=%FF%FE", "action=drive&drive=fast",
                        "action=self-timer&delay=5s", "action=interval&seconds=7", "action=interval&seconds=-1",
                        "action=zoom&factor=inf", "action=zoom&factor=0", "action=auto-zoom&on=yes"] {
            #expect(control(refused) == nil, "\(refused)")
        }
        #expect(FormFields.parse([UInt8](repeating: 97, count: FormFields.maximumBytes + 1)) == nil)
    }

    @Test func theShutterIsTheShutterKeyAndADialTurnsOnlyInPro() {
        var c = InterfaceControllerTests.controller()
        #expect(c.handleRemote(.shutter(pressed: true), at: 5, metered: Self.metered).capture == 5)
        #expect(c.handleRemote(.shutter(pressed: false), at: 5.1, metered: Self.metered).capture == nil)
        _ = c.handleRemote(.turn(.iso, steps: 2), at: 6, metered: Self.metered)
        #expect(c.model.settings.iso == .auto, "Auto: the dials are not there to turn")
        #expect(c.handleRemote(.mode(.pro), at: 7, metered: Self.metered).settingsChanged && c.model.settings.mode == .pro)
        let turned = c.handleRemote(.turn(.iso, steps: 2), at: 8, metered: Self.metered)
        #expect(turned.settingsChanged && c.model.settings.iso.manualValue.map { $0.value > 400 } == true,
                "two stops up from Auto's metered 400: \(c.model.settings.iso)")
        #expect(c.model.settings.selectedDial == .iso)
    }

    /// A tethered computer's values (SetDevicePropValue): set outright in Pro, fitted to the
    /// sensor's scale, the dial selected so the screen shows what moved; nothing in Auto.
    @Test func aDialsValueSetOutrightInProAlone() {
        var c = InterfaceControllerTests.controller()
        #expect(!c.handleRemote(.iso(.manual(ISOSpeed(800))), at: 1, metered: Self.metered).settingsChanged)
        #expect(c.model.settings.iso == .auto, "Auto chooses the ISO")
        _ = c.handleRemote(.mode(.pro), at: 2, metered: Self.metered)
        #expect(c.handleRemote(.iso(.manual(ISOSpeed(800))), at: 3, metered: Self.metered).settingsChanged)
        #expect(c.model.settings.iso == .manual(ISOSpeed(800)) && c.model.settings.selectedDial == .iso)
        #expect(c.handleRemote(.shutterSpeed(.manual(ShutterSpeed(1, 250))), at: 4, metered: Self.metered).settingsChanged)
        #expect(c.model.settings.shutter == .manual(ShutterSpeed(1, 250)) && c.model.settings.selectedDial == .shutter)
        #expect(c.handleRemote(.whiteBalance(.preset(.cloudy)), at: 5, metered: Self.metered).settingsChanged)
        #expect(c.model.settings.whiteBalance == .preset(.cloudy) && c.model.settings.selectedDial == .whiteBalance)
        _ = c.handleRemote(.iso(.manual(ISOSpeed(102_400))), at: 6, metered: Self.metered)
        let highest = c.model.isoScale.nearest(to: ISOSpeed(102_400))
        #expect(c.model.settings.iso == .manual(highest) && highest.value < 102_400, "the sensor's highest: \(highest)")
        #expect(c.handleRemote(.iso(.auto), at: 7, metered: Self.metered).settingsChanged && c.model.settings.iso == .auto)
    }

    @Test func aFormatTheCameraCannotGiveIsRefusedInItsWords() {
        var c = InterfaceController(model: CameraModel(settings: CameraSettings(), limits: SensorLimits(
            isoRange: 100...1600, exposureRange: 0.001...0.1, hasFocusControl: false, hasRawFormat: false)),
                                    layout: InterfaceControllerTests.layout, now: 0)
        let refused = c.handleRemote(.format(.raw), at: 1, metered: Self.metered)
        #expect(!refused.settingsChanged && refused.notice == InterfaceText.rawUnavailable && c.model.settings.format == .jpeg)
        var raw = InterfaceControllerTests.controller()
        #expect(raw.handleRemote(.format(.rawPlusJPEG), at: 1, metered: Self.metered).settingsChanged)
        #expect(raw.model.settings.format == .rawPlusJPEG)
    }

    @Test func theDriveTheZoomAndAutoZoomAsTheMenuAndTheLensButtonsSetThem() {
        var c = InterfaceControllerTests.controller()
        #expect(c.handleRemote(.drive(.interval), at: 1, metered: Self.metered).settingsChanged && c.model.settings.drive.mode == .interval)
        #expect(c.handleRemote(.interval(seconds: 90), at: 2, metered: Self.metered).settingsChanged)
        #expect(c.handleRemote(.selfTimer(.twoSeconds), at: 3, metered: Self.metered).settingsChanged)
        #expect(c.model.settings.drive.intervalSeconds == 90 && c.model.settings.drive.selfTimer == .twoSeconds)
        _ = c.handleRemote(.zoom(2), at: 4, metered: Self.metered)
        #expect(c.zoom.factor(at: 4) < 2 && abs(c.zoom.factor(at: 10) - 2) < 1e-9, "a glide, as a lens button's")
        _ = c.handleRemote(.zoom(1000), at: 11, metered: Self.metered)
        #expect(c.zoom.factor(at: 30) == InterfaceController.zoomRange.upperBound, "within the camera's reach")
        // Auto-zoom only where there is a detector; on and on again is one change.
        #expect(!c.handleRemote(.autoZoom(true), at: 31, metered: Self.metered).settingsChanged && !c.model.settings.autoZoom)
        c.autoZoomAvailable = true
        #expect(c.handleRemote(.autoZoom(true), at: 32, metered: Self.metered).settingsChanged && c.model.settings.autoZoom)
        #expect(!c.handleRemote(.autoZoom(true), at: 33, metered: Self.metered).settingsChanged && c.model.settings.autoZoom)
    }

    @Test func aTapOnTheLiveViewMetersWhereAFingerWould() {
        var c = InterfaceControllerTests.controller()
        let outcome = c.handleRemote(.tap(x: 0.25, y: 0.5), at: 2, metered: Self.metered)
        let point = c.model.settings.meteringPoint
        #expect(outcome.settingsChanged && point != nil)
        #expect(abs((point?.x ?? 0) - 0.25) < 0.02 && abs((point?.y ?? 0) - 0.5) < 0.02, "\(String(describing: point))")
    }
}
