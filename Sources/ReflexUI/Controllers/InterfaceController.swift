import ReflexCore
import ReflexISP

/// What the photographer's touches, turns and keys do to the camera: the router of the
/// interface's rules, apart from any device; nothing here reads a clock. Each concern has its
/// own rules: the Pro dials and encoders (`DialControl`), the drives (`DriveControl`), the
/// quick menu and geotag's consent (`QuickMenuControl`), taps on the picture
/// (`PictureTapControl`), the fingers (`TouchTracker`), review (`ReviewController`); what a
/// touch came down on is `InterfaceTarget`. Here:
///
/// - A tap on the toggle switches Auto ⇄ Pro (the dials slide in or out); in Pro a vertical
///   drag on a dial turns it (up = up a stop), a tap on a white balance preset sets it.
/// - Holding zoom-in or zoom-out (the rocker, or the volume keys) ramps the digital zoom
///   exponentially; letting go holds it (docs/camera.md, The controls). Two fingers on the picture pinch it.
/// - The shutter button takes a photo as the finger comes down (the press's time is the
///   photo's moment); so does the shutter key's full press. The half press locks exposure
///   and white balance until it is let go.
/// - A tap on the format badge steps JPEG → RAW → RAW+JPEG (RAW where the camera gives raw).
/// - Any touch or turn brings the faded controls back to full opacity.
/// - The thumbnail or the play key opens review; the play key, its Back button, or the
///   shutter's half or full press (taken as always) return to the viewfinder.
public struct InterfaceController: Sendable {
    public static let doubleTapInterval = 0.35
    /// Movement beyond this (in points) makes a touch a drag, not a tap.
    public static let tapSlopPoints = 10.0
    /// The digital zoom's reach: the ISP crops the sensor's picture down to an eighth.
    public static let zoomRange = 1.0...8.0

    public private(set) var model: CameraModel
    public internal(set) var fade: ControlsFade
    public private(set) var reveal: ProDialsSlide
    public private(set) var zoom = ZoomRamp(range: InterfaceController.zoomRange)
    /// The board's lenses present now (none, or one: no buttons).
    public private(set) var lenses = LensSet([])
    /// The board's encoders and keys.
    public var controls = BoardControls()
    /// Exposure and white balance held by the shutter's half press.
    public private(set) var locked = false
    /// A save problem's banner is on screen: its Retry and Discard answer touches.
    public var saveProblemShown = false
    /// The drives: burst, self-timer, interval runs.
    private var drive = DriveControl()
    private var dials = DialControl()
    var quickMenu = QuickMenuControl()
    /// False where each photo switches the sensor's mode: a hold takes one photo.
    public var burstAllowed = true
    /// A movie is recording (the loop says so from the movie thread's report).
    public var recording = false
    /// The camera has a person detector: the AUTO ZOOM button shows and answers.
    public var autoZoomAvailable = false
    /// Why the remote cannot be turned on here (nil: it can).
    public var remoteUnavailable: String? {
        get { quickMenu.remoteUnavailable }
        set { quickMenu.remoteUnavailable = newValue }
    }
    let layout: ScreenLayout
    private let density: PanelDensity

    private var touches = TouchTracker()
    private var pictureTaps = PictureTapControl()

    public init(model: CameraModel, layout: ScreenLayout, now: Double) {
        self.model = model
        self.layout = layout
        // Drags are measured in the panel's real points where its density is known, so they
        // keep their feel on any panel.
        density = layout.density
        fade = ControlsFade(now: now)
        reveal = ProDialsSlide(shown: model.settings.mode == .pro)
    }

    public var menu: QuickMenu { quickMenu.menu }
    public var burst: BurstTimer { drive.burst }
    public var selfTimer: SelfTimer? { drive.selfTimer }
    public var intervalRun: IntervalSchedule? { drive.intervalRun }
    public var intervalRunsStarted: Int { drive.intervalRunsStarted }
    public var timedPhotoRun: Int? { drive.timedPhotoRun }

    public func peaking(at now: Double) -> Bool { dials.peaking(at: now) }
    public mutating func nextBurstPhoto(at now: Double) -> Double? { drive.nextBurstPhoto(at: now) }
    public mutating func nextTimedPhoto(at now: Double) -> Double? { drive.nextTimedPhoto(at: now, settings: model.settings) }
    public func screenDimmed(at now: Double) -> Bool { drive.screenDimmed(at: now) }
    public mutating func stopInterval(because reason: String) { drive.stopInterval(because: reason) }
    public mutating func takeIntervalEnding() -> String? { drive.takeIntervalEnding() }
    public mutating func takeEndedRun() -> DriveControl.EndedRun? { drive.takeEndedRun() }
    public mutating func countdownAnnouncement(at now: Double) -> Int? { drive.countdownAnnouncement(at: now) }

    /// The lenses present changed (the board's cameras came or went): the zoom reaches from
    /// the widest's field of view to the longest's cropped, the factor kept where it can be.
    public mutating func setLenses(_ present: LensSet, at now: Double) {
        lenses = present
        let range = present.lenses.isEmpty ? InterfaceController.zoomRange : present.zoomRange
        guard range != zoom.range else { return }
        zoom = ZoomRamp(range: range, factor: zoom.factor(at: now))
    }

    /// A lens button's glide that has arrived ends (called each frame).
    public mutating func settleZoom(at now: Double) { zoom.settle(at: now) }

    /// The framing at `now`: the manual zoom, or auto-zoom's while the setting is on (a key,
    /// a pinch or a lens button overriding it).
    public mutating func framing(with autoZoom: inout AutoZoomControl, subject: AutoFraming.Subject?, extent: FractionalBox,
                                 at now: Double) -> Framing {
        autoZoom.framing(enabled: model.settings.autoZoom && autoZoomAvailable, size: model.settings.autoZoomFraming, zoom: &zoom,
                         pinching: touches.isPinching, subject: subject, extent: extent, at: now)
    }

    /// A new lens: a focus set by hand was for the lens before, so the new one focuses by
    /// itself. True if the settings changed.
    public mutating func focusAutomaticallyOnNewLens() -> Bool {
        guard model.settings.focus != .auto else { return false }
        return model.resetToAuto(.focus)
    }

    /// The camera's real ranges, once known: the settings as they are now fitted to them (a
    /// manual ISO the sensor cannot reach moved to the nearest it can; no focus motor, no focus
    /// dial), as the sensor side fits them (`CameraModel`, the one fitter); the dials follow.
    /// Not the sensor's copy of the settings: a dial turned or a phone's change made while the
    /// camera opened is newer than the report that brings the ranges, and must not be undone.
    public mutating func adopt(limits: SensorLimits) {
        model = CameraModel(settings: model.settings, limits: limits, focusScale: model.focusScale)
        if !model.offers(model.settings.selectedDial) { model.select(.iso) }
    }

    /// Review, while it is open: its rules take the touches, the dials and its keys.
    public internal(set) var review: ReviewController?

    public mutating func handle(_ event: InputEvent, at now: Double, metered: MeteredValues) -> Outcome {
        // A dimmed screen's first press, touch or turn only wakes it: the shutter pressed to
        // see the screen must not stop the run.
        let waking = screenDimmed(at: now) && InterfaceController.isPress(event)
        drive.noteInput(at: now)
        if waking { return Outcome() }
        guard review != nil else { return handleCamera(event, at: now, metered: metered) }
        return handleInReview(event, at: now, metered: metered)
    }

    /// A phone's control (the remote), as the camera's own keys, dials and taps do it: the
    /// shutter is the shutter key (drives, Video and review alike), a dial turns as an encoder
    /// does (in Pro), a tap meters or picks the subject as a finger on the picture does.
    public mutating func handleRemote(_ control: RemoteControl, at now: Double, metered: MeteredValues) -> Outcome {
        switch control {
        case .shutter(let pressed):
            return handle(.key(code: controls.shutterKeys.full, pressed: pressed), at: now, metered: metered)
        case .record:
            if let key = controls.recordKeys.first { return handle(.key(code: key, pressed: true), at: now, metered: metered) }
        default: break
        }
        drive.noteInput(at: now)
        var outcome = Outcome()
        guard review == nil else { return outcome }
        fade.interact(at: now)
        switch control {
        case .shutter: break
        case .record:
            quickMenu.close()
            outcome.record = true
        case .mode(let mode):
            outcome.settingsChanged = model.setMode(mode)
            reveal.set(shown: mode == .pro, at: now)
        case .turn(let dial, let steps):
            guard model.settings.mode == .pro else { break }
            outcome.settingsChanged = model.select(dial)
            dials.turn(dial, steps: steps, model: &model, metered: metered, at: now, into: &outcome)
        case .format(let format):
            guard model.availableFormats.contains(format) else {
                outcome.notice = InterfaceText.rawUnavailable
                break
            }
            let before = model.settings.format
            outcome.settingsChanged = model.setFormat(format)
            QuickMenuControl.formatNotice(from: before, model: model, into: &outcome)
        case .exposureCompensation(let compensation):
            outcome.settingsChanged = model.setExposureCompensation(compensation)
        case .tap(let x, let y):
            let picture = layout.viewfinder
            pictureTaps.tap(x: Double(picture.x) + x * Double(picture.width), y: Double(picture.y) + y * Double(picture.height),
                            at: now, model: &model, autoZoomOn: autoZoomAvailable && model.settings.autoZoom,
                            viewfinder: picture, zoom: zoom.factor(at: now), into: &outcome)
        case .drive(let mode):
            guard DriveMode.available.contains(mode) else { break }
            outcome.settingsChanged = model.update { $0.drive.mode = mode }
        case .selfTimer(let delay):
            outcome.settingsChanged = model.update { $0.drive.selfTimer = delay }
        case .interval(let seconds):
            outcome.settingsChanged = model.update { $0.drive.intervalSeconds = seconds }
        case .zoom(let factor):
            zoom.glide(to: factor, at: now)
        case .autoZoom(let on):
            if on != model.settings.autoZoom { toggleAutoZoom(into: &outcome) }
        case .iso(let iso):
            outcome.settingsChanged = model.setISO(iso)
            if outcome.settingsChanged { model.select(.iso) }
        case .shutterSpeed(let shutter):
            outcome.settingsChanged = model.setShutter(shutter)
            if outcome.settingsChanged { model.select(.shutter) }
        case .whiteBalance(let whiteBalance):
            outcome.settingsChanged = model.setWhiteBalance(whiteBalance)
            if outcome.settingsChanged { model.select(.whiteBalance) }
        }
        return outcome
    }

    /// A finger down, a key pressed or a dial turned (not a release or a move).
    private static func isPress(_ event: InputEvent) -> Bool {
        switch event {
        case .touchDown, .wheel, .key(_, true): true
        default: false
        }
    }

    mutating func handleCamera(_ event: InputEvent, at now: Double, metered: MeteredValues) -> Outcome {
        var outcome = Outcome()
        switch event {
        case .touchDown(let slot, let x, let y):
            // (An eleventh finger is ignored whole: a shutter it pressed would never be let go.)
            guard touches.canFollow(slot) else { break }
            fade.interact(at: now)
            var under = target(x: x, y: y)
            // A tap anywhere but the shutter (whose press is the second press) stops the countdown.
            if selfTimer != nil && under != .shutter {
                drive.cancelSelfTimer(into: &outcome)
                under = .spent
            }
            // The shutter fires as the finger comes down, as a real shutter button does.
            if under == .shutter { pressShutter(at: now, into: &outcome) }
            touches.down(slot, on: under, x: x, y: y, zoom: zoom.factor(at: now))
        case .touchMotion(let slot, let x, let y):
            let slop = density.pixels(fromPoints: InterfaceController.tapSlopPoints)
            guard let motion = touches.move(slot, x: x, y: y, slop: slop, density: density) else { break }
            fade.interact(at: now)
            if let factor = motion.zoom { zoom.set(factor) }
            if let drag = motion.dial {
                if drag.started { outcome.settingsChanged = model.select(drag.dial) || outcome.settingsChanged }
                if drag.steps != 0 { dials.turn(drag.dial, steps: drag.steps, model: &model, metered: metered, at: now, into: &outcome) }
            }
        case .touchUp(let slot):
            guard let touch = touches.lift(slot) else { break }
            fade.interact(at: now)
            if touch.target == .shutter { drive.release(at: now) }
            guard !touch.moved else { break }
            tap(touch.target, x: touch.startX, y: touch.startY, at: now, into: &outcome)
        case .touchCancel(let slot):
            if touches.lift(slot)?.target == .shutter { drive.release(at: now) }
        case .wheel where menu.isShowingRemote:
            break
        case .wheel(let wheel, let v120) where menu.isOpen:
            fade.interact(at: now)
            let detents = dials.detents(of: wheel, v120: v120)
            guard detents != 0 else { break }
            quickMenu.turn(wheel: wheel, detents: detents, controls: controls, model: &model, autoZoomAvailable: autoZoomAvailable,
                           into: &outcome)
        case .wheel(let wheel, let v120):
            fade.interact(at: now)
            guard model.settings.mode == .pro else { break }
            let detents = dials.detents(of: wheel, v120: v120)
            guard detents != 0 else { break }
            dials.turn(wheel: wheel, detents: detents, controls: controls, model: &model, metered: metered, at: now, into: &outcome)
        case .key(let code, true) where (controls.menuKeys.contains(code) || controls.nextDialKeys.contains(code))
                                        && menu.isShowingRemote:
            quickMenu.hideRemote(into: &outcome)
        case .key(let code, true) where controls.menuKeys.contains(code) && menu.isAskingConsent:
            quickMenu.answerConsent(allow: false, model: &model, into: &outcome)
        case .key(let code, true) where controls.menuKeys.contains(code):
            fade.interact(at: now)
            quickMenu.toggle(into: &outcome)
        case .key(let code, true) where controls.nextDialKeys.contains(code) && menu.isAskingConsent:
            quickMenu.answerConsent(allow: menu.consentAllowHighlighted, model: &model, into: &outcome)
        case .key(let code, true) where controls.nextDialKeys.contains(code) && menu.isOpen:
            quickMenu.move(by: 1, settings: model.settings, into: &outcome)
        case .key(let code, true) where controls.nextDialKeys.contains(code):
            fade.interact(at: now)
            guard model.settings.mode == .pro else { break }
            outcome.settingsChanged = DialControl.selectDial(movingBy: 1, model: &model)
        case .key(let code, let pressed) where code == controls.shutterKeys.full:
            if pressed { pressShutter(at: now, into: &outcome) } else { drive.release(at: now) }
        case .key(let code, true) where controls.playKeys.contains(code):
            openReview(at: now, into: &outcome)
        case .key(let code, true) where controls.autoZoomKeys.contains(code):
            toggleAutoZoom(into: &outcome)
        case .key(let code, true) where controls.recordKeys.contains(code):
            fade.interact(at: now)
            quickMenu.close()
            outcome.record = true
        case .key(let code, let pressed) where code == controls.shutterKeys.half:
            // A half press returns to shooting, as on any camera.
            if pressed { quickMenu.close() }
            guard pressed != locked else { break }
            locked = pressed
            outcome.lockChanged = true
        case .key(let code, let pressed):
            let direction: ZoomRamp.Direction? = controls.zoomInKeys.contains(code) ? .zoomIn
                : controls.zoomOutKeys.contains(code) ? .zoomOut : nil
            guard let direction else { break }
            if pressed { zoom.press(direction, at: now) } else { zoom.release(at: now) }
        }
        return outcome
    }

    /// The shutter button or key: what the drive makes of it (`DriveControl`), or in Video
    /// the record button. It closes the menu, as on any camera.
    private mutating func pressShutter(at now: Double, into outcome: inout Outcome) {
        quickMenu.close()
        if model.settings.capture == .video {
            outcome.record = true
            return
        }
        drive.press(drive: model.settings.drive, burstAllowed: burstAllowed, at: now, into: &outcome)
    }

    private mutating func tap(_ target: InterfaceTarget, x: Double, y: Double, at now: Double, into outcome: inout Outcome) {
        switch target {
        case .toggle:
            let mode: ShootingMode = model.settings.mode == .pro ? .auto : .pro
            outcome.settingsChanged = model.setMode(mode)
            outcome.confirmed = outcome.settingsChanged
            reveal.set(shown: mode == .pro, at: now)
            dials.forgetTap()
        case .dial(let dial):
            dials.tap(dial, model: &model, at: now, into: &outcome)
        case .preset(let whiteBalance):
            outcome.settingsChanged = model.setWhiteBalance(whiteBalance)
            if outcome.settingsChanged { outcome.ticks += 1 }
        case .format:
            let offered = model.availableFormats
            if offered.count == 1 { outcome.notice = InterfaceText.rawUnavailable }
            let current = offered.firstIndex(of: model.settings.format) ?? -1
            let next = offered[(current + 1) % offered.count]
            let before = model.settings.format
            if next != model.settings.format {
                outcome.settingsChanged = model.setFormat(next)
                outcome.confirmed = true
            }
            QuickMenuControl.formatNotice(from: before, model: model, into: &outcome)
        case .captureToggle:
            guard !recording else {
                outcome.notice = InterfaceText.stopRecordingFirst
                break
            }
            outcome.settingsChanged = model.setCapture(model.settings.capture == .photo ? .video : .photo)
            outcome.confirmed = outcome.settingsChanged
        case .saveAnswer(let decision):
            outcome.saveDecision = decision
            outcome.confirmed = true
        case .picture:
            pictureTaps.tap(x: x, y: y, at: now, model: &model, autoZoomOn: autoZoomAvailable && model.settings.autoZoom,
                            viewfinder: layout.viewfinder, zoom: zoom.factor(at: now), into: &outcome)
        case .menuButton:
            quickMenu.toggle(into: &outcome)
        case .thumbnail:
            openReview(at: now, into: &outcome)
        case .autoZoomButton:
            toggleAutoZoom(into: &outcome)
        case .lens(let index):
            // A glide to the lens's magnification: the lens changes on the way, at its switch-over.
            zoom.glide(to: lenses.lenses[index].magnification, at: now)
        case .menuLine(let item, let side):
            quickMenu.tap(item, side: side, model: &model, autoZoomAvailable: autoZoomAvailable, into: &outcome)
        case .outsideMenu:
            quickMenu.close()
        case .consentAnswer(let allow):
            quickMenu.answerConsent(allow: allow, model: &model, into: &outcome)
        case .remoteSheet:
            quickMenu.hideRemote(into: &outcome)
        case .shutter, .menuPanel, .consentScreen, .spent:
            break
        }
    }

    /// Geotag back off because there is no GPS to ask (the loop's check after the switch).
    /// True when it was on.
    public mutating func refuseGeotag() -> Bool { model.setGeotag(false) }

    /// AUTO ZOOM on or off, confirmed under the finger (a board's key by name does the same).
    public mutating func toggleAutoZoom(into outcome: inout Outcome) {
        guard autoZoomAvailable else { return }
        model.update { $0.autoZoom.toggle() }
        outcome.settingsChanged = true
        outcome.confirmed = true
    }
}
