import ReflexCore
import ReflexISP
import ReflexUI
import Testing

/// The quick menu (issue: controls, part 1): opened by its button and by the board's menu
/// key, walked by the dials and by touch; each change is a setting, felt as a tick.
@Suite struct QuickMenuTests {
    typealias Rig = InterfaceControllerTests
    static let layout = Rig.layout
    static let metered = Rig.metered

    static func press(_ c: inout InterfaceController, _ code: UInt32, at t: Double) -> InterfaceController.Outcome {
        let down = c.handle(.key(code: code, pressed: true), at: t, metered: metered)
        _ = c.handle(.key(code: code, pressed: false), at: t + 0.05, metered: metered)
        return down
    }

    static func tapAt(_ c: inout InterfaceController, x: Int, y: Int, at t: Double) -> InterfaceController.Outcome {
        _ = c.handle(.touchDown(slot: 0, x: Double(x), y: Double(y)), at: t, metered: metered)
        return c.handle(.touchUp(slot: 0), at: t + 0.05, metered: metered)
    }

    static func row(_ item: QuickMenuItem) -> PixelRect { layout.menuRows[item.rawValue] }

    @Test func theMenuKeyOpensItAndTheDialsChangeTheFormat() {
        var c = Rig.controller()
        let opened = Self.press(&c, KeyCode.menu, at: 1)
        #expect(c.menu.isOpen && opened.haptic == .tick)
        #expect(c.menu.highlighted == .format)
        // In Auto too: the encoder that turns the selected dial changes the value.
        let turned = c.handle(.wheel(wheel: 0, v120: 120), at: 2, metered: Self.metered)
        #expect(turned.settingsChanged && turned.haptic == .tick)
        #expect(c.model.settings.format == .raw)
        // The dial picker moves the highlight; then the first dial sets zebras on.
        _ = c.handle(.wheel(wheel: 1, v120: 240), at: 3, metered: Self.metered)
        #expect(c.menu.highlighted == .zebras)
        _ = c.handle(.wheel(wheel: 0, v120: 120), at: 4, metered: Self.metered)
        #expect(c.model.settings.zebras)
        _ = Self.press(&c, KeyCode.menu, at: 5)
        #expect(!c.menu.isOpen)
        #expect(c.model.settings.mode == .auto && c.model.settings.iso == .auto, "the dials did nothing else")
    }

    @Test func aTapOnAValuesHalvesStepsItBackAndForth() {
        var c = Rig.controller()
        _ = Self.tapAt(&c, x: Self.layout.menuButton.x + 10, y: Self.layout.menuButton.y + 10, at: 1)
        #expect(c.menu.isOpen)
        let ev = Self.row(.exposureCompensation)
        let forward = Self.tapAt(&c, x: ev.x + ev.width - 10, y: ev.y + ev.height / 2, at: 2)
        #expect(forward.settingsChanged && c.model.settings.exposureCompensation == ExposureCompensation(thirds: 1))
        #expect(c.menu.highlighted == .exposureCompensation)
        for t in 0..<3 { _ = Self.tapAt(&c, x: ev.x + ev.width / 2 + 10, y: ev.y + ev.height / 2, at: 3 + Double(t)) }
        #expect(c.model.settings.exposureCompensation == ExposureCompensation(thirds: -2))
        // A tap on the title only highlights.
        let quality = Self.row(.jpegQuality)
        let title = Self.tapAt(&c, x: quality.x + 10, y: quality.y + quality.height / 2, at: 8)
        #expect(!title.settingsChanged && c.menu.highlighted == .jpegQuality)
        // Outside the panel: closed, and that tap does nothing else.
        let outside = Self.tapAt(&c, x: 1000, y: 400, at: 9)
        #expect(!c.menu.isOpen && !outside.settingsChanged && c.model.settings.meteringPoint == nil)
    }

    @Test func exposureCompensationBumpsAtItsEnds() {
        var c = Rig.controller()
        _ = Self.press(&c, KeyCode.menu, at: 1)
        _ = c.handle(.wheel(wheel: 1, v120: 120), at: 2, metered: Self.metered)
        #expect(c.menu.highlighted == .exposureCompensation)
        var bumped = false
        for i in 0..<12 { bumped = c.handle(.wheel(wheel: 0, v120: 120), at: 3 + Double(i), metered: Self.metered).bumped || bumped }
        #expect(bumped && c.model.settings.exposureCompensation == ExposureCompensation(thirds: 9))
    }

    @Test func theShutterClosesTheMenu() {
        var c = Rig.controller()
        _ = Self.press(&c, KeyCode.menu, at: 1)
        _ = c.handle(.key(code: KeyCode.cameraFocus, pressed: true), at: 2, metered: Self.metered)
        #expect(!c.menu.isOpen)
        _ = Self.press(&c, KeyCode.menu, at: 3)
        let shot = Self.press(&c, KeyCode.camera, at: 4)
        #expect(!c.menu.isOpen && shot.capture == 4)
    }

    @Test func aBodyWithItsOwnDialsWalksTheMenuWithThem() throws {
        var c = Rig.controller()
        c.controls = try BoardControls.parse("encoder.front = shutter\nencoder.rear = iso\nnext-dial-keys = KEY_OK\n").get()
        _ = Self.press(&c, KeyCode.menu, at: 1)
        _ = c.handle(.wheel(wheel: 1, v120: 120), at: 2, metered: Self.metered)  // rear: moves
        #expect(c.menu.highlighted == .exposureCompensation)
        _ = Self.press(&c, 0x160, at: 3)  // the push: the next line
        #expect(c.menu.highlighted == .zebras)
        _ = c.handle(.wheel(wheel: 0, v120: 120), at: 4, metered: Self.metered)  // front: the value
        #expect(c.model.settings.zebras)
    }

    @Test func aBoardWithoutEnhancedRawSaysWhyWhereItWouldCome() {
        var limits = SensorLimits.unlimited
        limits.enhancedRawUnavailable = SensorLimits.stillsSwitchModes
        var c = InterfaceController(model: CameraModel(settings: CameraSettings(), limits: limits),
                                    layout: InterfaceControllerTests.layout, now: 0)
        _ = Self.press(&c, KeyCode.menu, at: 1)
        var notices: [String?] = []
        for turn in 0..<3 {
            notices.append(c.handle(.wheel(wheel: 0, v120: 120), at: 2 + Double(turn), metered: Self.metered).notice)
        }
        #expect(c.model.settings.format == .jpeg, "RAW, RAW+JPEG, then JPEG again")
        #expect(notices == [nil, nil, SensorLimits.stillsSwitchModes])
    }

    @Test func everyLineStepsAndComesBack() {
        var model = CameraModel(settings: CameraSettings(), limits: .unlimited)
        // (Those with ends step back; the others go round.)
        let withEnds: Set<QuickMenuItem> = [.exposureCompensation, .bracketStep, .interval, .intervalCount, .intervalDelay]
        // (Forget phones is an action, not a value: RemoteMenuTests.)
        for item in QuickMenuItem.allCases where item != .forgetPhones {
            let before = model.settings
            let changed = item.step(by: 1, in: &model).changed
            #expect(changed, "\(item.title) changes")
            // (Round again: a choice of n values comes back after n - 1 more steps.)
            let rest = switch item {
            case _ where withEnds.contains(item): -1
            case .format: model.availableFormats.count - 1
            case .drive: DriveMode.available.count - 1
            case .jpegQuality, .autoZoomFraming, .selfTimer, .bracketFrames, .usb: 2
            case .timelapse: DriveSettings.timelapseRates.count - 1
            default: 1
            }
            _ = item.step(by: rest, in: &model)
            #expect(model.settings == before, "\(item.title) comes back: \(item.value(model.settings))")
        }
    }

    @Test func aDriveModesOwnLinesShowOnlyWhileItIsChosen() {
        var settings = CameraSettings()
        #expect(QuickMenuItem.lines(for: settings).last == .drive)
        settings.drive.mode = .interval
        #expect(QuickMenuItem.lines(for: settings).suffix(5) == [.drive, .interval, .intervalCount, .intervalDelay, .timelapse])
        settings.drive.mode = .bracketing
        #expect(QuickMenuItem.lines(for: settings).suffix(3) == [.drive, .bracketFrames, .bracketStep])
        #expect(QuickMenuItem.mostLines == QuickMenuItem.lines(for: CameraSettings()).count + 4 + 1, "an interval's four, Forget phones")
        // The dials walk only the lines shown: from Drive round to Format.
        var menu = QuickMenu()
        menu.highlight(.drive)
        menu.move(by: 1, in: settings)
        #expect(menu.highlighted == .bracketFrames)
        menu.move(by: 2, in: settings)
        #expect(menu.highlighted == .format)
        // A line of another mode's (the drive changed under it) walks on from Drive.
        menu.highlight(.intervalCount)
        menu.move(by: 1, in: settings)
        #expect(menu.highlighted == .bracketFrames)
    }

    @Test func theIntervalsTimesStopAtTheirEnds() {
        var settings = CameraSettings()
        settings.drive.intervalSeconds = 7  // set with `reflex settings`: between two stops
        var model = CameraModel(settings: settings, limits: .unlimited)
        #expect(QuickMenuItem.interval.step(by: 1, in: &model) == (true, false))
        #expect(model.settings.drive.intervalSeconds == 10, "from the nearest stop (5 s or 10 s) on")
        _ = QuickMenuItem.interval.step(by: 100, in: &model)
        #expect(model.settings.drive.intervalSeconds == 86_400)
        #expect(QuickMenuItem.interval.step(by: 1, in: &model) == (false, true), "24 h is the end: a bump")
        _ = QuickMenuItem.intervalCount.step(by: 100, in: &model)
        #expect(model.settings.drive.intervalCount == nil && QuickMenuItem.intervalCount.value(model.settings) == "Unlimited")
        _ = QuickMenuItem.bracketStep.step(by: -20, in: &model)
        #expect(model.settings.drive.bracketStepThirds == 1 && QuickMenuItem.bracketStep.value(model.settings) == "±1/3 EV")
        #expect(QuickMenuItem.intervalDelay.value(model.settings) == "None")
    }
}
