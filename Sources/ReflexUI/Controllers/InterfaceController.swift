import ReflexCore
import ReflexISP

/// What the photographer's touches and dial turns do to the camera: the rules of the
/// interface, apart from any device. Time comes in as seconds; nothing here reads a clock.
///
/// - A tap on the toggle switches Auto ⇄ Pro (the dials slide in or out).
/// - In Pro: a tap on a dial selects it, a double tap puts it back to automatic, a vertical
///   drag on it turns it (up = up a stop, thresholds in points); a tap on a white balance
///   preset sets it.
/// - The board's encoders (BoardControls): one turns the selected dial, one picks the dial,
///   or each turns a dial of its own; a detent is a stop when turned slowly, more when spun
///   (DialAcceleration), never past a bound. An encoder's push selects the next dial.
/// - Holding zoom-in or zoom-out (the zoom rocker, or the volume keys) ramps the digital zoom
///   exponentially; letting go holds it (seed 003).
/// - The shutter button takes a photo as the finger comes down (the press's time is the
///   photo's moment); so does the shutter key's full press. In the Burst drive, held, either
///   takes a burst at 10 frames a second until let go (`BurstTimer`); in Single, one photo
///   a press. The key's half press locks exposure and white balance until it is let go.
/// - A tap on the format badge steps JPEG → RAW → RAW+JPEG (RAW only where the camera
///   gives raw frames).
/// - In Auto, a tap on the picture meters exposure on that spot (a box shows it); a double
///   tap there, or a change of mode, meters the whole frame again.
/// - Two fingers on the picture pinch the digital zoom (the keys' zoom, with its label).
/// - The quick menu (the Menu button, or the board's menu key) holds what the dials do not:
///   format, the drive (and its mode's own choices), exposure compensation, zebras,
///   peaking, the grid, JPEG quality, geotag, auto-zoom. A tap
///   on a line's value steps it (right half forward, left half back); the encoder that turns
///   the selected dial changes the highlighted line's value, the dial picker (or a push)
///   moves the highlight; a tap outside it, the menu key again, or the shutter closes it.
/// - The first time geotag is turned on, a screen over the menu explains what it writes and
///   asks: Allow turns it on (and is remembered), Don't allow leaves it off. Answered by a
///   tap, or by the dials (a turn moves between the answers, a push picks); the menu key, the
///   shutter or closing the menu is Don't allow. Only a tap on an answer counts: a stray
///   touch elsewhere does nothing.
/// - Any touch or turn brings the faded controls back to full opacity.
/// - A tap on the last photo's thumbnail, or the play key, opens review (`ReviewController`
///   has its rules); the play key, its Back button, or the shutter's half or full press
///   (taken as always) return to the viewfinder.
public struct InterfaceController: Sendable {
    public static let doubleTapInterval = 0.35
    /// Movement beyond this (in points) makes a touch a drag, not a tap.
    public static let tapSlopPoints = 10.0
    /// Focus peaking stays this long after the focus dial last moved.
    public static let peakingHold = 1.0
    /// The digital zoom's reach: the ISP crops the sensor's picture down to an eighth.
    public static let zoomRange = 1.0...8.0

    public private(set) var model: CameraModel
    public private(set) var fade: ControlsFade
    public private(set) var reveal: ProReveal
    public private(set) var zoom = ZoomRamp(range: InterfaceController.zoomRange)
    /// The board's lenses present now (none, or one: no buttons).
    public private(set) var lenses = LensSet([])
    /// The board's encoders and keys.
    public var controls = BoardControls()
    /// Exposure and white balance held by the shutter's half press.
    public private(set) var locked = false
    /// A save problem's banner is on screen: its Retry and Discard answer touches.
    public var saveProblemShown = false
    /// The shutter held: a burst.
    public private(set) var burst = BurstTimer()
    /// The self-timer counting down to its photo (nil: none).
    public private(set) var selfTimer: SelfTimer?
    /// The interval run under way (nil: none), and how the last one ended, once (`takeIntervalEnding`).
    public private(set) var intervalRun: IntervalSchedule?
    private var intervalEnding: String?
    /// Interval runs started so far: each run's photos carry its number (`timedPhotoRun`).
    public private(set) var intervalRunsStarted = 0
    /// The run the photo `nextTimedPhoto` returned last is of (nil: the self-timer's).
    public private(set) var timedPhotoRun: Int?
    /// A run that ended having taken photos, once (`takeEndedRun`): its timelapse is made.
    private var endedRun: EndedRun?

    /// An interval run that ended: its number and the photos it took.
    public struct EndedRun: Sendable, Equatable {
        public let run: Int
        public let photos: Int

        public init(run: Int, photos: Int) { (self.run, self.photos) = (run, photos) }
    }
    /// When the photographer last pressed, touched or turned anything: an interval run's
    /// screen dims after `dimAfter` seconds of nothing.
    private var lastInputAt = -Double.infinity
    public static let dimAfter = 10.0
    public private(set) var menu = QuickMenu()
    /// False where each photo switches the sensor's mode: a hold takes one photo.
    public var burstAllowed = true
    /// A movie is recording (the loop says so from the movie thread's report).
    public var recording = false
    /// The camera has a person detector: the AUTO ZOOM button shows and answers.
    public var autoZoomAvailable = false
    private let layout: ScreenLayout
    private let density: PanelDensity

    enum Target: Equatable, Sendable {
        case toggle
        case dial(Dial)
        case preset(WhiteBalance)
        case shutter
        case captureToggle
        case format
        case saveAnswer(SaveDecision)
        case picture
        case menuButton
        case autoZoomButton
        /// A lens button (an index in `lenses`).
        case lens(Int)
        /// A line of the open menu; `side` -1 or +1 on its value's left or right half, 0 its title.
        case menuLine(QuickMenuItem, side: Int)
        /// Inside the open menu's panel, on no line.
        case menuPanel
        /// Anywhere else while the menu is open: closes it.
        case outsideMenu
        /// The last photo's thumbnail: opens review.
        case thumbnail
        /// An answer on the geotag consent screen (true: Allow).
        case consentAnswer(Bool)
        /// Anywhere else while the consent screen is up: nothing.
        case consentScreen
        /// A touch that has done its part as it came down (it cancelled the self-timer).
        case spent
    }

    struct Touch: Sendable {
        var target: Target
        var startX: Double, startY: Double
        var lastX = 0.0
        var lastY: Double
        var moved: Bool
        var drag: DialDragAccumulator?
    }

    private var touches: [Int: Touch] = [:]
    private var lastTap: (dial: Dial, time: Double)?
    private var lastPictureTap = -Double.infinity
    /// Two fingers on the picture: how far apart they started and the zoom then.
    private var pinch: (distance: Double, zoom: Double)?
    /// Per encoder (by number; the last for unnamed wheels): detents and their pace.
    private var wheels = [DetentAccumulator](repeating: DetentAccumulator(), count: 9)
    private var paces = [DialAcceleration](repeating: DialAcceleration(), count: 9)
    private var peakingUntil = -Double.infinity

    public init(model: CameraModel, layout: ScreenLayout, now: Double) {
        self.model = model
        self.layout = layout
        // Drags are measured in the panel's real points where its density is known, so they
        // keep their feel on any panel.
        density = layout.density
        fade = ControlsFade(now: now)
        reveal = ProReveal(shown: model.settings.mode == .pro)
    }

    /// What an event did.
    public struct Outcome: Sendable, Equatable {
        /// The settings changed: save them and tell the sensor.
        public var settingsChanged = false
        /// Stops stepped and whether a bound was hit (for haptics and sound).
        public var ticks = 0
        public var bumped = false
        /// A switch of mode or format (or a dial back on Auto): confirmed under the finger.
        public var confirmed = false
        /// The shutter was pressed at this time (the event's own): take a photo.
        public var capture: Double?
        /// Start or stop recording (the record key, or the shutter in Video).
        public var record = false
        /// The half press's lock changed (exposure and white balance held, or let go).
        public var lockChanged = false
        /// A one-line reason to show for a while (what was asked cannot be done).
        public var notice: String?
        /// The photographer answered the save problem's banner.
        public var saveDecision: SaveDecision?
        /// A tap on the picture while auto-zoom is on: the person there becomes its subject
        /// (fractions of the viewfinder's picture; on no one, the choice is cleared).
        public var subjectTap: (x: Double, y: Double)?
        /// For the review thread (open, close, another item, a delete or protect answered).
        public var review: ReviewCommand?
        /// Review's overlay changed (a question asked, the overlay hidden).
        public var reviewChanged = false

        public init() {}

        public static func == (a: Outcome, b: Outcome) -> Bool {
            a.settingsChanged == b.settingsChanged && a.ticks == b.ticks && a.bumped == b.bumped && a.confirmed == b.confirmed
                && a.capture == b.capture && a.record == b.record && a.lockChanged == b.lockChanged && a.notice == b.notice
                && a.saveDecision == b.saveDecision && a.review == b.review && a.reviewChanged == b.reviewChanged
                && a.subjectTap?.x == b.subjectTap?.x && a.subjectTap?.y == b.subjectTap?.y
        }

        /// What the hand should feel for this event, if anything.
        public var haptic: HapticEffect? {
            if capture != nil || record { return .shutter }
            if bumped { return .bump }
            if confirmed { return .confirm }
            return ticks > 0 ? .tick : nil
        }
    }

    public func peaking(at now: Double) -> Bool { now < peakingUntil }

    /// The next burst photo due by `now` while the shutter is held (call until nil).
    public mutating func nextBurstPhoto(at now: Double) -> Double? { burst.next(at: now) }

    /// The self-timer's or the interval run's next photo due by `now`, at its planned time
    /// (call until nil); the timer ends after its last, the run after its count.
    public mutating func nextTimedPhoto(at now: Double) -> Double? {
        if selfTimer != nil {
            defer { if selfTimer?.isRunning == false { selfTimer = nil } }
            timedPhotoRun = nil
            return selfTimer?.nextShot(at: now)
        }
        guard intervalRun != nil else { return nil }
        // (The drive or the capture changed in the menu: the run ends there.)
        guard model.settings.drive.mode == .interval && model.settings.capture == .photo else {
            stopInterval(because: "the drive changed")
            return nil
        }
        guard let due = intervalRun!.next(at: now) else { return nil }
        timedPhotoRun = intervalRunsStarted
        if intervalRun!.isFinished { endInterval(InterfaceText.intervalDone(intervalRun!)) }
        return due
    }

    /// The screen dimmed: an interval run waits between photos and nothing was touched for
    /// `dimAfter` seconds (any input wakes it).
    public func screenDimmed(at now: Double) -> Bool {
        intervalRun != nil && now - lastInputAt >= InterfaceController.dimAfter
    }

    /// The interval run stopped by the camera (the card is full, gone or read-only), with why.
    public mutating func stopInterval(because reason: String) {
        guard let run = intervalRun else { return }
        endInterval(InterfaceText.intervalStopped(run, because: reason))
    }

    /// How the last interval run ended, once (for the notice).
    public mutating func takeIntervalEnding() -> String? {
        defer { intervalEnding = nil }
        return intervalEnding
    }

    /// The interval run that ended last with photos, once.
    public mutating func takeEndedRun() -> EndedRun? {
        defer { endedRun = nil }
        return endedRun
    }

    private mutating func endInterval(_ text: String) {
        if let run = intervalRun, run.taken > 0 { endedRun = EndedRun(run: intervalRunsStarted, photos: run.taken) }
        intervalRun = nil
        intervalEnding = text
    }

    /// The countdown's seconds left, once as each begins (a tick felt, the LED's blink).
    public mutating func countdownAnnouncement(at now: Double) -> Int? { selfTimer?.announcement(at: now) }

    private mutating func cancelSelfTimer(into outcome: inout Outcome) {
        selfTimer = nil
        outcome.confirmed = true
        outcome.notice = InterfaceText.selfTimerCancelled
    }

    /// The camera's real ranges, once known, with the settings the sensor side fitted to them
    /// (a manual ISO the sensor cannot reach moved to the nearest it can; no focus motor, no
    /// focus dial): the dials follow them.
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
    public mutating func framing(with autoZoom: inout AutoZoomControl, subject: AutoFraming.Subject?, extent: FrameBox,
                                 at now: Double) -> Framing {
        autoZoom.framing(enabled: model.settings.autoZoom && autoZoomAvailable, size: model.settings.autoZoomFraming, zoom: &zoom,
                         pinching: pinch != nil, subject: subject, extent: extent, at: now)
    }

    /// A new lens: a focus set by hand was for the lens before, so the new one focuses by
    /// itself. True if the settings changed.
    public mutating func focusAutomaticallyOnNewLens() -> Bool {
        guard model.settings.focus != .auto else { return false }
        return model.resetToAuto(.focus)
    }

    public mutating func adopt(limits: SensorLimits, fittedSettings: CameraSettings) {
        model = CameraModel(settings: fittedSettings, limits: limits, focusScale: model.focusScale)
        if !model.availableDials.contains(model.settings.selectedDial) { model.select(.iso) }
    }

    /// Review, while it is open: its rules take the touches, the dials and its keys.
    public private(set) var review: ReviewController?

    public mutating func handle(_ event: InputEvent, at now: Double, metered: MeteredValues) -> Outcome {
        // A dimmed screen's first press, touch or turn only wakes it: the shutter pressed to
        // see the screen must not stop the run.
        let waking = screenDimmed(at: now) && InterfaceController.isPress(event)
        lastInputAt = now
        if waking { return Outcome() }
        guard review != nil else { return handleCamera(event, at: now, metered: metered) }
        // Review's overlay fades as the Pro dials do, and comes back at any touch or turn.
        fade.interact(at: now)
        switch event {
        case .key(let code, let pressed) where code == controls.shutterKeys.full || code == controls.shutterKeys.half
            || controls.recordKeys.contains(code):
            guard pressed else { return handleCamera(event, at: now, metered: metered) }
            // The shutter returns to shooting at once, and does what it always does.
            review = nil
            var outcome = handleCamera(event, at: now, metered: metered)
            outcome.review = .close
            return outcome
        case .key(let code, true) where ReviewController.closes(code, controls: controls):
            var outcome = Outcome()
            closeReview(into: &outcome)
            return outcome
        default:
            let answer = review!.handle(event, at: now, controls: controls)
            var outcome = Outcome()
            outcome.ticks = answer.ticks
            outcome.confirmed = answer.confirmed
            outcome.notice = answer.notice
            outcome.reviewChanged = answer.changed
            if answer.command == .close { closeReview(into: &outcome) } else { outcome.review = answer.command }
            return outcome
        }
    }

    /// A finger down, a key pressed or a dial turned (not a release or a move).
    private static func isPress(_ event: InputEvent) -> Bool {
        switch event {
        case .touchDown, .wheel, .key(_, true): true
        default: false
        }
    }

    /// The review thread's newest item, for review's rules and overlay.
    public mutating func showReview(_ info: ReviewInfo?, cardIsEmpty: Bool) {
        review?.show(info, cardIsEmpty: cardIsEmpty)
    }

    private mutating func openReview(at now: Double, into outcome: inout Outcome) {
        menu.close()
        fade.interact(at: now)
        review = ReviewController(layout: layout)
        outcome.review = .open
        outcome.ticks += 1
    }

    private mutating func closeReview(into outcome: inout Outcome) {
        closeReview()
        outcome.review = .close
        outcome.ticks += 1
    }

    /// Review closed from outside its rules (the camera has nothing to review).
    public mutating func closeReview() { review = nil }

    private mutating func handleCamera(_ event: InputEvent, at now: Double, metered: MeteredValues) -> Outcome {
        var outcome = Outcome()
        switch event {
        case .touchDown(let slot, let x, let y):
            fade.interact(at: now)
            var under = target(x: x, y: y)
            // A tap anywhere but the shutter (whose press is the second press) stops the countdown.
            if selfTimer != nil && under != .shutter {
                cancelSelfTimer(into: &outcome)
                under = .spent
            }
            // The shutter fires as the finger comes down, as a real shutter button does.
            if under == .shutter { pressShutter(at: now, into: &outcome) }
            touches[slot] = Touch(target: under, startX: x, startY: y, lastX: x, lastY: y, moved: false, drag: nil)
            if under == .picture, let distance = pictureFingersApart() {
                pinch = (distance, zoom.factor(at: now))
                // Neither finger of a pinch is a tap.
                // (Through the values' indices: changing the dictionary while walking its keys copies it.)
                for index in touches.values.indices where touches.values[index].target == .picture {
                    touches.values[index].moved = true
                }
            }
        case .touchMotion(let slot, let x, let y):
            guard var touch = touches[slot] else { break }
            fade.interact(at: now)
            let slop = density.pixels(fromPoints: InterfaceController.tapSlopPoints)
            if abs(x - touch.startX) > slop || abs(y - touch.startY) > slop { touch.moved = true }
            touch.lastX = x
            if touch.target == .picture, let pinch {
                touches[slot]?.lastX = x
                touches[slot]?.lastY = y
                if let distance = pictureFingersApart(), pinch.distance > 0 {
                    zoom.set(pinch.zoom * distance / pinch.distance)
                }
            }
            if case .dial(let dial) = touch.target, touch.moved {
                if touch.drag == nil {
                    // The drag counts from where the finger came down, slop included.
                    outcome.settingsChanged = model.select(dial) || outcome.settingsChanged
                    touch.drag = DialDragAccumulator(dial: dial, density: density)
                    touch.lastY = touch.startY
                }
                let steps = touch.drag!.feed(upwardPixels: touch.lastY - y)
                if steps != 0 { turn(dial, steps: steps, metered: metered, now: now, into: &outcome) }
            }
            touch.lastY = y
            touches[slot] = touch
        case .touchUp(let slot):
            guard let touch = touches.removeValue(forKey: slot) else { break }
            fade.interact(at: now)
            if touch.target == .picture, pinch != nil, pictureFingersApart() == nil { pinch = nil }
            if touch.target == .shutter { burst.release(at: now) }
            guard !touch.moved else { break }
            tap(touch.target, x: touch.startX, y: touch.startY, at: now, into: &outcome)
        case .touchCancel(let slot):
            if touches.removeValue(forKey: slot)?.target == .shutter { burst.release(at: now) }
            if pictureFingersApart() == nil { pinch = nil }
        case .wheel(let wheel, let v120) where menu.isOpen:
            fade.interact(at: now)
            let slot = wheels.indices.contains(wheel) ? wheel : wheels.count - 1
            let detents = wheels[slot].feed(v120: v120)
            guard detents != 0 else { break }
            if menu.isAskingConsent {
                // Two answers: any turn moves to the other.
                menu.moveConsentChoice()
                outcome.ticks += 1
            } else if menuEncoderChangesValue(wheel) {
                stepMenuValue(menu.highlighted, by: detents, into: &outcome)
            } else {
                menu.move(by: detents, in: model.settings)
                outcome.ticks += 1
            }
        case .wheel(let wheel, let v120):
            fade.interact(at: now)
            guard model.settings.mode == .pro else { break }
            let slot = wheels.indices.contains(wheel) ? wheel : wheels.count - 1
            let detents = wheels[slot].feed(v120: v120)
            guard detents != 0 else { break }
            switch controls.role(ofEncoder: wheel) {
            case .selectedDial:
                turn(model.settings.selectedDial, steps: paces[slot].stops(forDetents: detents, at: now), metered: metered,
                     now: now, into: &outcome)
            case .dial(let dial):
                guard model.availableDials.contains(dial) else { break }
                outcome.settingsChanged = model.select(dial)
                turn(dial, steps: paces[slot].stops(forDetents: detents, at: now), metered: metered, now: now, into: &outcome)
            case .dialPicker:
                outcome.settingsChanged = selectDial(movingBy: detents)
            }
        case .key(let code, true) where controls.menuKeys.contains(code) && menu.isAskingConsent:
            answerConsent(allow: false, into: &outcome)
        case .key(let code, true) where controls.menuKeys.contains(code):
            fade.interact(at: now)
            toggleMenu(into: &outcome)
        case .key(let code, true) where controls.nextDialKeys.contains(code) && menu.isAskingConsent:
            answerConsent(allow: menu.consentAllowHighlighted, into: &outcome)
        case .key(let code, true) where controls.nextDialKeys.contains(code) && menu.isOpen:
            menu.move(by: 1, in: model.settings)
            outcome.ticks += 1
        case .key(let code, true) where controls.nextDialKeys.contains(code):
            fade.interact(at: now)
            guard model.settings.mode == .pro else { break }
            outcome.settingsChanged = selectDial(movingBy: 1)
        case .key(let code, let pressed) where code == controls.shutterKeys.full:
            if pressed { pressShutter(at: now, into: &outcome) } else { burst.release(at: now) }
        case .key(let code, true) where controls.playKeys.contains(code):
            openReview(at: now, into: &outcome)
        case .key(let code, true) where controls.autoZoomKeys.contains(code):
            toggleAutoZoom(into: &outcome)
        case .key(let code, true) where controls.recordKeys.contains(code):
            fade.interact(at: now)
            menu.close()
            outcome.record = true
        case .key(let code, let pressed) where code == controls.shutterKeys.half:
            // A half press returns to shooting, as on any camera.
            if pressed { menu.close() }
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

    /// The shutter button or key: a photo (a burst while held in the Burst drive; the
    /// countdown started or stopped in Self-timer), or in Video the record button.
    private mutating func pressShutter(at now: Double, into outcome: inout Outcome) {
        menu.close()
        if model.settings.capture == .video {
            outcome.record = true
            return
        }
        if model.settings.drive.mode == .interval {
            // A press starts the run; the next stops it.
            if let run = intervalRun {
                endInterval(InterfaceText.intervalStopped(run, because: nil))
                outcome.notice = takeIntervalEnding()
            } else {
                var run = model.settings.drive.intervalSchedule
                run.start(at: now)
                intervalRun = run
                intervalRunsStarted += 1
                outcome.notice = InterfaceText.intervalStarted(run)
            }
            outcome.confirmed = true
            return
        }
        if model.settings.drive.mode == .selfTimer {
            if selfTimer != nil { cancelSelfTimer(into: &outcome); return }
            selfTimer = SelfTimer(delay: model.settings.drive.selfTimer)
            selfTimer?.start(at: now)
            outcome.confirmed = true
            return
        }
        outcome.capture = now
        if burstAllowed && model.settings.drive.mode == .burst { burst.press(at: now) }
    }

    /// Selects the dial `steps` along from the selected one (round the available dials).
    private mutating func selectDial(movingBy steps: Int) -> Bool {
        let dials = model.availableDials
        let current = dials.firstIndex(of: model.settings.selectedDial) ?? 0
        return model.select(dials[((current + steps) % dials.count + dials.count) % dials.count])
    }

    private mutating func turn(_ dial: Dial, steps: Int, metered: MeteredValues, now: Double, into outcome: inout Outcome) {
        let before = model.settings
        let result = model.turn(dial, steps: steps, metered: metered)
        outcome.ticks += result.ticks
        outcome.bumped = outcome.bumped || result.bumped
        // A step between focus marks, or leaving Auto at a bound, changes settings without a tick.
        if model.settings != before { outcome.settingsChanged = true }
        if dial == .focus { peakingUntil = now + InterfaceController.peakingHold }
    }

    private mutating func tap(_ target: Target, x: Double, y: Double, at now: Double, into outcome: inout Outcome) {
        switch target {
        case .toggle:
            let mode: ShootingMode = model.settings.mode == .pro ? .auto : .pro
            outcome.settingsChanged = model.setMode(mode)
            outcome.confirmed = outcome.settingsChanged
            reveal.set(shown: mode == .pro, at: now)
            lastTap = nil
        case .dial(let dial):
            if let lastTap, lastTap.dial == dial, now - lastTap.time <= InterfaceController.doubleTapInterval {
                outcome.settingsChanged = model.resetToAuto(dial)
                outcome.confirmed = outcome.settingsChanged
                self.lastTap = nil
            } else {
                outcome.settingsChanged = model.select(dial)
                lastTap = (dial, now)
            }
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
            formatNotice(from: before, into: &outcome)
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
            tapPicture(x: x, y: y, at: now, into: &outcome)
        case .menuButton:
            toggleMenu(into: &outcome)
        case .thumbnail:
            openReview(at: now, into: &outcome)
        case .autoZoomButton:
            toggleAutoZoom(into: &outcome)
        case .lens(let index):
            // A glide to the lens's magnification: the lens changes on the way, at its switch-over.
            zoom.glide(to: lenses.lenses[index].magnification, at: now)
        case .menuLine(let item, let side):
            if menu.highlighted != item {
                menu.highlight(item)
                outcome.ticks += 1
            }
            if side != 0 { stepMenuValue(item, by: side, into: &outcome) }
        case .outsideMenu:
            menu.close()
        case .consentAnswer(let allow):
            answerConsent(allow: allow, into: &outcome)
        case .shutter, .menuPanel, .consentScreen, .spent:
            break
        }
    }

    /// Allow: geotag on, consent remembered, confirmed under the finger. Don't allow: it
    /// stays off. Either way the menu shows again.
    private mutating func answerConsent(allow: Bool, into outcome: inout Outcome) {
        menu.endConsent()
        if allow {
            outcome.settingsChanged = model.update {
                $0.geotagConsent = true
                $0.geotag = true
            }
            outcome.confirmed = true
        } else {
            outcome.ticks += 1
        }
    }

    /// Geotag back off because there is no GPS to ask (the loop's check after the switch).
    /// True when it was on.
    public mutating func refuseGeotag() -> Bool { model.setGeotag(false) }

    private mutating func toggleMenu(into outcome: inout Outcome) {
        if menu.isOpen { menu.close() } else { menu.open() }
        outcome.ticks += 1
    }

    /// A menu line's value stepped: a tick, a bump at exposure compensation's ends.
    private mutating func stepMenuValue(_ item: QuickMenuItem, by steps: Int, into outcome: inout Outcome) {
        // Turned on for the first time: the consent screen first.
        if item == .geotag, !model.settings.geotag, !model.settings.geotagConsent {
            menu.askConsent()
            outcome.ticks += 1
            return
        }
        // No person detector on this camera: auto-zoom's lines say why, and change nothing.
        if (item == .autoZoom || item == .autoZoomFraming) && !autoZoomAvailable {
            outcome.notice = InterfaceText.noAutoZoom
            outcome.bumped = true
            return
        }
        let before = model.settings.format
        let result = item.step(by: steps, in: &model)
        outcome.settingsChanged = outcome.settingsChanged || result.changed
        if result.bumped { outcome.bumped = true } else if result.changed { outcome.ticks += 1 }
        formatNotice(from: before, into: &outcome)
    }

    /// The format went round past RAW+JPEG, where Enhanced RAW would come on a camera that
    /// has it: the one-line reason this one does not.
    private func formatNotice(from before: CaptureFormat, into outcome: inout Outcome) {
        guard let reason = model.limits.enhancedRawUnavailable, model.availableFormats.count > 1 else { return }
        let after = model.settings.format
        if (before == .rawPlusJPEG && after == .jpeg) || (before == .jpeg && after == .rawPlusJPEG) { outcome.notice = reason }
    }

    /// In the menu, the encoder that turns the selected dial (or a board's first dial of its
    /// own) changes the value; the dial picker and the others move the highlight.
    private func menuEncoderChangesValue(_ wheel: Int) -> Bool {
        switch controls.role(ofEncoder: wheel) {
        case .selectedDial: true
        case .dialPicker: false
        case .dial: controls.encoders.firstIndex { if case .dial = $0.role { true } else { false } } == wheel
        }
    }

    /// In Auto: meter on the spot tapped, or (a double tap) on the whole frame again.
    /// AUTO ZOOM on or off, confirmed under the finger (a board's key by name does the same).
    public mutating func toggleAutoZoom(into outcome: inout Outcome) {
        guard autoZoomAvailable else { return }
        model.update { $0.autoZoom.toggle() }
        outcome.settingsChanged = true
        outcome.confirmed = true
    }

    private mutating func tapPicture(x: Double, y: Double, at now: Double, into outcome: inout Outcome) {
        // Auto-zoom on: a tap chooses its subject, in Auto and Pro alike; a double tap gives
        // the choice back to the camera (a tap on no one: nowhere in the picture).
        if autoZoomAvailable && model.settings.autoZoom {
            let viewfinder = layout.viewfinder
            if now - lastPictureTap <= InterfaceController.doubleTapInterval {
                lastPictureTap = -.infinity
                outcome.subjectTap = (-1, -1)
            } else {
                lastPictureTap = now
                outcome.subjectTap = ((x - Double(viewfinder.x)) / Double(viewfinder.width),
                                      (y - Double(viewfinder.y)) / Double(viewfinder.height))
            }
            outcome.ticks += 1
            return
        }
        guard model.settings.mode == .auto else { return }
        if now - lastPictureTap <= InterfaceController.doubleTapInterval {
            lastPictureTap = -.infinity
            outcome.settingsChanged = model.setMeteringPoint(nil)
            outcome.confirmed = outcome.settingsChanged
            return
        }
        lastPictureTap = now
        guard let point = MeteringPoint.under(touchX: x, touchY: y, viewfinder: layout.viewfinder,
                                              zoom: zoom.factor(at: now)) else { return }
        outcome.settingsChanged = model.setMeteringPoint(point)
        if outcome.settingsChanged { outcome.ticks += 1 }
    }

    /// How far apart the first two fingers on the picture are (nil: fewer than two).
    private func pictureFingersApart() -> Double? {
        var first: Touch?
        for touch in touches.values where touch.target == .picture {
            guard let a = first else { first = touch; continue }
            let dx = touch.lastX - a.lastX, dy = touch.lastY - a.lastY
            return (dx * dx + dy * dy).squareRoot()
        }
        return nil
    }

    /// What is under a point. The Pro controls only count while they are on screen.
    func target(x: Double, y: Double) -> Target {
        let px = Int(x.rounded(.down)), py = Int(y.rounded(.down))
        if layout.shutterButton.contains(x: px, y: py) { return .shutter }
        if menu.isAskingConsent {
            if layout.consentAllowButton.contains(x: px, y: py) { return .consentAnswer(true) }
            if layout.consentDenyButton.contains(x: px, y: py) { return .consentAnswer(false) }
            return .consentScreen
        }
        if menu.isOpen {
            for (index, row) in layout.menuRows.enumerated() where row.contains(x: px, y: py) {
                guard let item = QuickMenuItem.line(at: index, for: model.settings) else { break }
                // The value is the line's right half; its halves step back and forward.
                let valueStart = row.x + row.width / 2, valueMiddle = row.x + row.width * 3 / 4
                return .menuLine(item, side: px < valueStart ? 0 : px < valueMiddle ? -1 : 1)
            }
            return layout.menuPanel.contains(x: px, y: py) ? .menuPanel : .outsideMenu
        }
        if layout.menuButton.contains(x: px, y: py) { return .menuButton }
        if autoZoomAvailable && layout.autoZoomButton.contains(x: px, y: py) { return .autoZoomButton }
        if lenses.offersChoice {
            for (index, button) in layout.lensButtons(count: lenses.lenses.count).enumerated()
            where button.contains(x: px, y: py) {
                return .lens(index)
            }
        }
        if saveProblemShown {
            if layout.retryButton.contains(x: px, y: py) { return .saveAnswer(.retry) }
            if layout.discardButton.contains(x: px, y: py) { return .saveAnswer(.discard) }
        }
        if layout.formatBadge.contains(x: px, y: py) { return .format }
        if layout.thumbnail.contains(x: px, y: py) { return .thumbnail }
        if layout.captureToggle.contains(x: px, y: py) { return .captureToggle }
        if layout.modeToggle.contains(x: px, y: py) { return .toggle }
        guard model.settings.mode == .pro else { return .picture }
        if model.settings.selectedDial == .whiteBalance {
            for (slot, preset) in zip(layout.presetSlots, WhiteBalance.presetRow) where slot.contains(x: px, y: py) {
                return .preset(preset)
            }
        }
        for (slot, dial) in zip(layout.dialSlots, Dial.allCases) where slot.contains(x: px, y: py) {
            return model.availableDials.contains(dial) ? .dial(dial) : .picture
        }
        return .picture
    }
}
