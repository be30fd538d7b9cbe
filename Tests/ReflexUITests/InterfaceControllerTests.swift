import CAllocationCounter
import ReflexCore
import ReflexISP
import ReflexUI
import Testing

/// The interface's rules, driven by synthetic touches and turns on a 1280x800 layout.
@Suite struct InterfaceControllerTests {
    static let layout = ScreenLayout(width: 1280, height: 800, sensorWidth: 16, sensorHeight: 9)
    static let metered = MeteredValues(iso: ISOSpeed(400), exposureSeconds: 1.0 / 125, focus: .infinity, kelvin: 5200)

    static func controller(_ settings: CameraSettings = CameraSettings()) -> InterfaceController {
        InterfaceController(model: CameraModel(settings: settings, limits: .unlimited), layout: layout, now: 0)
    }

    static func controller(drive: DriveMode) -> InterfaceController {
        var settings = CameraSettings()
        settings.drive.mode = drive
        return controller(settings)
    }

    static func centre(_ r: PixelRect) -> (Double, Double) { (Double(r.x + r.width / 2), Double(r.y + r.height / 2)) }

    static func tap(_ c: inout InterfaceController, _ r: PixelRect, at t: Double) -> InterfaceController.Outcome {
        let (x, y) = centre(r)
        _ = c.handle(.touchDown(slot: 0, x: x, y: y), at: t, metered: metered)
        return c.handle(.touchUp(slot: 0), at: t + 0.05, metered: metered)
    }

    @Test func aLensButtonGlidesTheZoomToItsLensAndOneLensHasNoButtons() throws {
        var c = Self.controller()
        let trio = LensSet([LensDescription(role: .ultraWide, camera: "a"), LensDescription(role: .wide, camera: "b"),
                            LensDescription(role: .tele, camera: "c")])
        c.setLenses(trio, at: 0)
        #expect(c.zoom.range == 0.5...8)
        let buttons = Self.layout.lensButtons(count: 3)
        try #require(buttons.count == 3)
        #expect(buttons[0].y > buttons[2].y, "the widest at the bottom")
        _ = Self.tap(&c, buttons[2], at: 1)
        #expect(c.zoom.isRamping)
        #expect(c.zoom.factor(at: 1.1 + ZoomRamp.glideSeconds) == 3)
        _ = Self.tap(&c, buttons[0], at: 3)
        #expect(c.zoom.factor(at: 3.1 + ZoomRamp.glideSeconds) == 0.5)
        // The ultra-wide gone: the zoom cannot stay wider than the wide.
        c.setLenses(LensSet(Array(trio.lenses.dropFirst())), at: 5)
        #expect(c.zoom.range == 1...8 && c.zoom.factor(at: 5) == 1)
        c.setLenses(LensSet([trio.lenses[1]]), at: 6)
        let (x, y) = Self.centre(buttons[1])
        let outcome = Self.tapPictureOutcome(&c, x: x, y: y)
        #expect(outcome.settingsChanged, "no button: the tap meters there")
    }

    static func tapPictureOutcome(_ c: inout InterfaceController, x: Double, y: Double) -> InterfaceController.Outcome {
        _ = c.handle(.touchDown(slot: 0, x: x, y: y), at: 8, metered: metered)
        return c.handle(.touchUp(slot: 0), at: 8.05, metered: metered)
    }

    @Test func aNewLensFocusesByItself() {
        var pro = CameraSettings()
        pro.setMode(.pro)
        pro.focus = .manual(FocusPosition(0.3))
        var c = Self.controller(pro)
        let first = c.focusAutomaticallyOnNewLens()
        #expect(first)
        #expect(c.model.settings.focus == .auto)
        let again = c.focusAutomaticallyOnNewLens()
        #expect(!again)
    }

    @Test func aTapOnTheToggleEntersProAndSlidesTheDialsIn() {
        var c = Self.controller()
        let outcome = Self.tap(&c, Self.layout.modeToggle, at: 10)
        #expect(outcome.settingsChanged)
        #expect(c.model.settings.mode == .pro)
        #expect(c.reveal.progress(at: 10.2) > 0 && c.reveal.progress(at: 10.2) < 1, "sliding in")
        #expect(c.reveal.progress(at: 10.5) == 1)
        _ = Self.tap(&c, Self.layout.modeToggle, at: 20)
        #expect(c.model.settings.mode == .auto)
        #expect(c.reveal.progress(at: 20.5) == 0)
    }

    @Test func inAutoTheDialsAreNotThereToTouch() {
        var c = Self.controller()
        _ = Self.tap(&c, Self.layout.dialSlots[1], at: 1)
        // (The tap lands on the picture: in Auto, it meters there.)
        var expected = CameraSettings()
        expected.meteringPoint = c.model.settings.meteringPoint
        #expect(c.model.settings == expected, "no dial selected, nothing else changed")
        #expect(c.model.settings.selectedDial == .iso)
    }

    @Test func dragUpOnTheISODialStepsItFromWhatAutoWasUsing() {
        var pro = CameraSettings()
        pro.mode = .pro
        var c = Self.controller(pro)
        let (x, y) = Self.centre(Self.layout.dialSlots[0])
        _ = c.handle(.touchDown(slot: 0, x: x, y: y), at: 1, metered: Self.metered)
        // 40 pt a stop; at this layout's scale a point is a pixel: 85 px up = 2 stops.
        var total = InterfaceController.Outcome()
        for step in 1...17 {
            let o = c.handle(.touchMotion(slot: 0, x: x, y: y - Double(step * 5)), at: 1 + Double(step) * 0.01, metered: Self.metered)
            total.ticks += o.ticks
        }
        _ = c.handle(.touchUp(slot: 0), at: 2, metered: Self.metered)
        #expect(total.ticks == 2)
        #expect(c.model.settings.iso == .manual(ISOSpeed(640)), "400 → 500 → 640")
    }

    /// A drag is measured in the panel's real points: on a 320 dpi panel a stop of ISO takes
    /// 80 px, twice what it takes where the design's pixel is a point.
    @Test func dragsAreInThePanelsRealPoints() {
        var pro = CameraSettings()
        pro.mode = .pro
        func ticks(draggingUp pixels: Int, density: PanelDensity?) -> Int {
            let layout = ScreenLayout(width: 1280, height: 800, density: density)
            var c = InterfaceController(model: CameraModel(settings: pro, limits: .unlimited), layout: layout, now: 0)
            let (x, y) = Self.centre(layout.dialSlots[0])
            _ = c.handle(.touchDown(slot: 0, x: x, y: y), at: 1, metered: Self.metered)
            var total = 0
            for step in 1...pixels / 5 {
                total += c.handle(.touchMotion(slot: 0, x: x, y: y - Double(step * 5)), at: 1 + Double(step) * 0.01,
                                  metered: Self.metered).ticks
            }
            _ = c.handle(.touchUp(slot: 0), at: 2, metered: Self.metered)
            return total
        }
        #expect(ticks(draggingUp: 85, density: nil) == 2)
        #expect(ticks(draggingUp: 85, density: PanelDensity(dotsPerInch: 320)) == 1)
        #expect(ticks(draggingUp: 165, density: PanelDensity(dotsPerInch: 320)) == 2)
    }

    @Test func aDoubleTapPutsADialBackToAuto() {
        var pro = CameraSettings()
        pro.mode = .pro
        pro.shutter = .manual(ShutterSpeed(1, 500))
        var c = Self.controller(pro)
        _ = Self.tap(&c, Self.layout.dialSlots[1], at: 1)
        #expect(c.model.settings.selectedDial == .shutter)
        #expect(c.model.settings.shutter == .manual(ShutterSpeed(1, 500)))
        _ = Self.tap(&c, Self.layout.dialSlots[1], at: 1.2)
        #expect(c.model.settings.shutter == .auto)
        // Too slow for a double tap: only a selection.
        pro.shutter = .manual(ShutterSpeed(1, 500))
        var slow = Self.controller(pro)
        _ = Self.tap(&slow, Self.layout.dialSlots[1], at: 1)
        _ = Self.tap(&slow, Self.layout.dialSlots[1], at: 2)
        #expect(slow.model.settings.shutter == .manual(ShutterSpeed(1, 500)))
    }

    @Test func presetsAreThereWhileTheWhiteBalanceDialIsSelected() {
        var pro = CameraSettings()
        pro.mode = .pro
        var c = Self.controller(pro)
        _ = Self.tap(&c, Self.layout.presetSlots[4], at: 1)
        #expect(c.model.settings.whiteBalance == .auto, "hidden presets cannot be tapped")
        _ = Self.tap(&c, Self.layout.dialSlots[3], at: 2)
        _ = Self.tap(&c, Self.layout.presetSlots[4], at: 3)
        #expect(c.model.settings.whiteBalance == .preset(.tungsten))
    }

    @Test func theFirstWheelTurnsTheSelectedDialAndTheSecondPicksTheDial() {
        var pro = CameraSettings()
        pro.mode = .pro
        var c = Self.controller(pro)
        // Two detents of a high-resolution wheel, in halves.
        var ticks = 0
        // (Turned slowly: a detent a quarter of a second, a stop each.)
        for i in 0..<4 { ticks += c.handle(.wheel(wheel: 0, v120: 60), at: 1 + Double(i) * 0.125, metered: Self.metered).ticks }
        #expect(ticks == 2)
        #expect(c.model.settings.iso == .manual(ISOSpeed(640)))
        _ = c.handle(.wheel(wheel: 1, v120: 120), at: 2, metered: Self.metered)
        #expect(c.model.settings.selectedDial == .shutter)
        _ = c.handle(.wheel(wheel: 1, v120: -240), at: 3, metered: Self.metered)
        #expect(c.model.settings.selectedDial == .whiteBalance, "it wraps around")
    }

    @Test func touchingBringsTheFadedControlsBack() {
        var pro = CameraSettings()
        pro.mode = .pro
        var c = Self.controller(pro)
        #expect(c.fade.opacity(at: 10) == ControlsFade.fadedOpacity)
        _ = c.handle(.touchDown(slot: 0, x: 600, y: 300), at: 10, metered: Self.metered)
        #expect(c.fade.opacity(at: 10) == 1)
    }

    /// A focus step between two 0.1 marks makes no tick, but it is a change all the same.
    @Test func aStepWithoutATickStillChangesTheSettings() {
        var pro = CameraSettings()
        pro.mode = .pro
        pro.selectedDial = .focus
        var c = Self.controller(pro)
        let outcome = c.handle(.wheel(wheel: 0, v120: -120), at: 1, metered: Self.metered)
        #expect(outcome.ticks == 0)
        #expect(outcome.settingsChanged)
        #expect(c.model.settings.focus == .manual(FocusPosition(thousandths: 980)))
    }

    @Test func aCancelledTouchIsNotATap() {
        var c = Self.controller()
        let (x, y) = Self.centre(Self.layout.modeToggle)
        _ = c.handle(.touchDown(slot: 0, x: x, y: y), at: 1, metered: Self.metered)
        _ = c.handle(.touchCancel(slot: 0), at: 1.05, metered: Self.metered)
        _ = c.handle(.touchUp(slot: 0), at: 1.1, metered: Self.metered)
        #expect(c.model.settings.mode == .auto)
    }

    @Test func theFocusDialShowsPeakingWhileItMoves() {
        var pro = CameraSettings()
        pro.mode = .pro
        pro.selectedDial = .focus
        var c = Self.controller(pro)
        #expect(!c.peaking(at: 1))
        _ = c.handle(.wheel(wheel: 0, v120: -120), at: 1, metered: Self.metered)
        #expect(c.peaking(at: 1.5))
        #expect(!c.peaking(at: 2.5))
    }
}

@Suite struct InterfaceControllerLimitsTests {
    /// When the camera turns out to have no focus motor and less gain than the seeds' range,
    /// the sensor side fits the settings (`CameraModel`, the one fitter) and the interface
    /// adopts them: the manual ISO moves to the nearest reachable stop, focus goes back to
    /// automatic, and a selected focus dial gives way to ISO.
    @Test func theModelRefitsToTheCamerasRealRanges() {
        var pro = CameraSettings()
        pro.mode = .pro
        pro.iso = .manual(ISOSpeed(6400))
        pro.focus = .manual(FocusPosition(thousandths: 300))
        pro.selectedDial = .focus
        var c = InterfaceController(model: CameraModel(settings: pro, limits: .unlimited),
                                    layout: ScreenLayout(width: 1280, height: 800), now: 0)
        let limits = SensorLimits(isoRange: 100...1594, exposureRange: 0.0001...0.0333, hasFocusControl: false, hasRawFormat: true)
        c.adopt(limits: limits)
        #expect(c.model.settings != pro)
        #expect(c.model.settings.iso == .manual(ISOSpeed(1250)), "1600 is just beyond 1594: the highest stop it reaches")
        #expect(c.model.settings.focus == .auto)
        #expect(c.model.settings.selectedDial == .iso)
        let before = c.model
        c.adopt(limits: limits)
        #expect(c.model == before, "the same limits again change nothing")
    }
}

@Suite struct ZoomKeysTests {
    /// Seed 003: holding zoom-in doubles the zoom each second; letting go holds it; the volume
    /// keys do the same where there is no zoom rocker.
    @Test func holdingZoomInRampsAndLettingGoHolds() {
        var c = InterfaceController(model: CameraModel(settings: CameraSettings(), limits: .unlimited),
                                    layout: ScreenLayout(width: 1280, height: 800), now: 0)
        let metered = InterfaceControllerTests.metered
        _ = c.handle(.key(code: KeyCode.zoomIn, pressed: true), at: 10, metered: metered)
        #expect(abs(c.zoom.factor(at: 11) - 2) < 1e-9)
        _ = c.handle(.key(code: KeyCode.zoomIn, pressed: false), at: 11, metered: metered)
        #expect(abs(c.zoom.factor(at: 20) - 2) < 1e-9, "held where it was let go")
        _ = c.handle(.key(code: KeyCode.volumeDown, pressed: true), at: 20, metered: metered)
        _ = c.handle(.key(code: KeyCode.volumeDown, pressed: false), at: 22, metered: metered)
        #expect(c.zoom.factor(at: 30) == 1, "zooming out stops at 1×")
        _ = c.handle(.key(code: KeyCode.camera, pressed: true), at: 30, metered: metered)
        #expect(!c.zoom.isRamping, "the shutter key is not a zoom key")
    }
}

/// AUTO ZOOM: its button, its key, and a tap on the picture choosing its subject.
@Suite struct AutoZoomInputTests {
    typealias T = InterfaceControllerTests

    @Test func theButtonAndTheKeyTurnItOnAndOffWhereTheCameraHasADetector() {
        var c = T.controller()
        var outcome = T.tap(&c, T.layout.autoZoomButton, at: 1)
        #expect(!c.model.settings.autoZoom && outcome.haptic != .confirm, "no detector: no button (a tap on the picture)")
        c.autoZoomAvailable = true
        outcome = T.tap(&c, T.layout.autoZoomButton, at: 2)
        #expect(c.model.settings.autoZoom && outcome.settingsChanged && outcome.haptic == .confirm)
        _ = c.handle(.key(code: 148, pressed: true), at: 3, metered: T.metered)
        #expect(!c.model.settings.autoZoom, "KEY_PROG1, the board's auto-zoom key by default")
    }

    /// A controller with auto-zoom on, and the point at `x`, `y` of the picture on screen.
    static func following(_ x: Double, _ y: Double) -> (InterfaceController, x: Double, y: Double) {
        var settings = CameraSettings()
        settings.autoZoom = true
        var c = T.controller(settings)
        c.autoZoomAvailable = true
        let viewfinder = T.layout.viewfinder
        return (c, Double(viewfinder.x) + x * Double(viewfinder.width), Double(viewfinder.y) + y * Double(viewfinder.height))
    }

    @Test func onATapOnThePictureChoosesTheSubjectInsteadOfMetering() throws {
        var (c, x, y) = Self.following(0.25, 0.75)
        let outcome = T.tapPictureOutcome(&c, x: x, y: y)
        let tap = try #require(outcome.subjectTap)
        #expect(abs(tap.x - 0.25) < 0.01 && abs(tap.y - 0.75) < 0.01)
        #expect(c.model.settings.meteringPoint == nil, "not a metering spot")
    }

    @Test func aDoubleTapOnThePictureGivesTheChoiceBackToTheCamera() throws {
        var (c, x, y) = Self.following(0.5, 0.5)
        _ = c.handle(.touchDown(slot: 0, x: x, y: y), at: 8, metered: T.metered)
        let first = try #require(c.handle(.touchUp(slot: 0), at: 8.05, metered: T.metered).subjectTap)
        #expect(abs(first.x - 0.5) < 0.01, "the first tap chooses")
        _ = c.handle(.touchDown(slot: 0, x: x, y: y), at: 8.2, metered: T.metered)
        let second = try #require(c.handle(.touchUp(slot: 0), at: 8.25, metered: T.metered).subjectTap)
        #expect(second.x < 0 && second.y < 0, "the second, within a double tap's time: on no one")
        _ = c.handle(.touchDown(slot: 0, x: x, y: y), at: 9.5, metered: T.metered)
        let third = try #require(c.handle(.touchUp(slot: 0), at: 9.55, metered: T.metered).subjectTap)
        #expect(abs(third.x - 0.5) < 0.01, "a tap later chooses again")
    }
}

/// The quick menu's auto-zoom lines on a camera without a person detector.
@Suite struct AutoZoomMenuTests {
    @Test func withoutADetectorTheLineSaysWhyAndChangesNothing() throws {
        var c = InterfaceControllerTests.controller()
        _ = InterfaceControllerTests.tap(&c, InterfaceControllerTests.layout.menuButton, at: 1)
        #expect(c.menu.isOpen)
        let index = try #require(QuickMenuItem.allCases.firstIndex(of: .autoZoom))
        let row = InterfaceControllerTests.layout.menuRows[index]
        // The value's right half steps forward.
        let forward = PixelRect(x: row.x + row.width * 7 / 8, y: row.y, width: 2, height: row.height)
        let outcome = InterfaceControllerTests.tap(&c, forward, at: 2)
        #expect(!c.model.settings.autoZoom && !outcome.settingsChanged)
        #expect(outcome.notice == InterfaceText.noAutoZoom)
        c.autoZoomAvailable = true
        let on = InterfaceControllerTests.tap(&c, forward, at: 3)
        #expect(c.model.settings.autoZoom && on.settingsChanged)
    }
}

/// The fingers are followed in place: the realtime loop takes a touch without a heap
/// allocation, the first touch of a new controller included.
@Suite struct TouchAllocationTests {
    @Test func aControllersFirstTapsAndAPinchAllocateNothing() {
        var c = InterfaceControllerTests.controller()
        let view = InterfaceControllerTests.layout.viewfinder
        let (x, y) = InterfaceControllerTests.centre(view)
        let metered = InterfaceControllerTests.metered
        let before = reflex_thread_allocations()
        for round in 0..<3 {
            let t = Double(round)
            _ = c.handle(.touchDown(slot: 0, x: x, y: y), at: t, metered: metered)
            _ = c.handle(.touchUp(slot: 0), at: t + 0.05, metered: metered)
        }
        // Two fingers on the picture pinch; an eleventh finger is ignored.
        _ = c.handle(.touchDown(slot: 0, x: x - 50, y: y), at: 5, metered: metered)
        _ = c.handle(.touchDown(slot: 1, x: x + 50, y: y), at: 5.01, metered: metered)
        _ = c.handle(.touchMotion(slot: 1, x: x + 150, y: y), at: 5.1, metered: metered)
        for slot in 2...10 { _ = c.handle(.touchDown(slot: slot, x: x, y: y + 100), at: 5.2, metered: metered) }
        for slot in 0...10 { _ = c.handle(.touchUp(slot: slot), at: 5.3, metered: metered) }
        #expect(reflex_thread_allocations() - before == 0)
    }

    /// With ten fingers down an eleventh is ignored whole: on the shutter it takes no photo
    /// (its lift would find nothing to let go, and a burst would go on).
    @Test func anEleventhFingerIsIgnoredWhole() {
        var c = InterfaceControllerTests.controller()
        let layout = InterfaceControllerTests.layout, metered = InterfaceControllerTests.metered
        let (x, y) = InterfaceControllerTests.centre(layout.viewfinder)
        for slot in 0..<10 { _ = c.handle(.touchDown(slot: slot, x: x + Double(slot), y: y), at: 1, metered: metered) }
        let (sx, sy) = InterfaceControllerTests.centre(layout.shutterButton)
        #expect(c.handle(.touchDown(slot: 10, x: sx, y: sy), at: 2, metered: metered).capture == nil)
        for slot in 0..<10 { _ = c.handle(.touchUp(slot: slot), at: 3, metered: metered) }
        #expect(c.handle(.touchDown(slot: 10, x: sx, y: sy), at: 4, metered: metered).capture != nil, "followed again")
    }

    /// Taps on what a touch finds by looking through the layout's slots (Pro's dials and
    /// presets, a board's lens buttons) allocate nothing: each was an array made per touch.
    @Test func tapsOnTheDialsPresetsAndLensButtonsAllocateNothing() {
        var settings = CameraSettings()
        settings.mode = .pro
        var c = InterfaceControllerTests.controller(settings)
        c.setLenses(LensSet([LensDescription(role: .ultraWide, camera: "a"), LensDescription(role: .wide, camera: "b"),
                             LensDescription(role: .tele, camera: "c")]), at: 0)
        let layout = InterfaceControllerTests.layout
        let targets = layout.dialSlots + layout.presetSlots + layout.lensButtons(count: 3) + [layout.viewfinder]
        // The white balance dial, tapped last of the four, shows the presets tapped next. (An
        // index loop: an array's iterator allocates in the tests' unoptimised code.)
        var t = 1.0
        func tapEach() {
            for index in targets.indices { _ = InterfaceControllerTests.tap(&c, targets[index], at: t); t += 10 }
        }
        // Once first: what is made once (the layout's storage, the runtime's tables for the
        // test's own loop) is not made per touch.
        tapEach()
        #expect(c.model.settings.selectedDial == .whiteBalance && c.model.settings.whiteBalance == WhiteBalance.presetRow.last,
                "the dials and the presets were tapped")
        let before = reflex_thread_allocations()
        tapEach()
        #expect(reflex_thread_allocations() - before == 0)
    }

    /// Pro's dials turned by the encoders, in each encoder's role, allocate nothing (each
    /// detent asked for the offered dials as an array).
    @Test func turningTheDialsAllocatesNothing() {
        var settings = CameraSettings()
        settings.mode = .pro
        var c = InterfaceControllerTests.controller(settings)
        // The selected dial, the dial picker, a front dial for the shutter.
        c.controls.encoders.append(BoardControls.Encoder(name: "3", role: .dial(.shutter)))
        let metered = InterfaceControllerTests.metered
        let before = reflex_thread_allocations()
        for detent in 0..<12 {
            let t = Double(detent) * 0.2
            for wheel in 0..<3 { _ = c.handle(.wheel(wheel: wheel, v120: detent % 2 == 0 ? 120 : -120), at: t, metered: metered) }
        }
        #expect(reflex_thread_allocations() - before == 0)
        #expect(c.model.settings.mode == .pro)
    }
}
