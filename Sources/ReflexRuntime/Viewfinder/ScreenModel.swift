import ReflexCore
import ReflexUI

/// What the viewfinder shows, apart from the hardware: the interface's rules
/// (`InterfaceController`), the screen's state, the camera's status turned into it, and the
/// notices, shown one way. It takes the time as an argument and touches no device: what must
/// leave it (a pulse to feel, settings to send on) comes back as `Effects`, which the
/// realtime loop carries out. Nothing here allocates once made, so the loop may call it
/// every frame.
struct ScreenModel {
    /// What the loop must do after a status was taken in.
    struct Effects: Equatable {
        /// A pulse to play (a new lens, felt).
        var haptic: HapticEffect?
        /// The settings changed here (a focus back to auto on a new lens, geotag refused):
        /// to the sensor, the file and the GPS client.
        var settingsChanged = false
        /// A new histogram for the overlay.
        var histogramChanged = false
        /// New dial scales (a camera with other limits): the painter paints them.
        var scalesChanged = false
        /// Review was closed here (its card went): the review thread is told.
        var reviewClosed = false
    }

    static let noticeSeconds = 3.0
    /// A switch refused says why, and where to turn it on later: longer to read.
    static let refusalNoticeSeconds = 6.0
    /// How long the mark that a photo was taken stays (fading out).
    static let captureMarkSeconds = 0.2
    /// How long geotag just switched on waits for gpsd's answer (a connection's limit is 2 s).
    static let geotagCheckSeconds = 4.0

    var controller: InterfaceController
    /// Auto-zoom beside the manual zoom, the framing it gave last, and the people it follows
    /// (fractions of the zoom-1 picture).
    private(set) var autoZoom = AutoZoomControl()
    private(set) var framing = Framing(zoom: 1)
    private var people = PeopleMarks()
    private(set) var state: ViewState
    private(set) var scales: DialScales
    /// The newest histogram the sensor sent (64 bins).
    private(set) var histogram = [UInt32](repeating: 0, count: 64)
    /// When the last photo was asked for: the mark round the picture fades from then.
    private(set) var capturedAt = -Double.infinity
    /// Until when the notice on screen stays.
    private var noticeUntil = -Double.infinity
    /// Photos cancelled for memory already said (-1: none seen yet), and the movie thread's
    /// messages already shown.
    private var cancelledShown = -1
    /// The timelapse report last taken in (nil: none yet; the first is news only of progress).
    private var timelapseShown: TimelapseReport?
    /// The newest bracket whose outcome was taken in (nil: none yet).
    private var bracketShown: BracketOutcome?
    private var movieMessagesShown = 0
    /// What the card's free space means: the shots left from this camera's real file sizes.
    private var storagePolicy = StoragePolicy(sensorPixels: 0)
    /// The card's free space as last checked (nil: no card, or not checked yet), and the
    /// interval run (its start) whose shots to come were last checked against it.
    private var cardFreeBytes: Int64?
    private var intervalCardCheckedFor: Double?
    /// The board's lenses, and the one streaming as last reported (its role), for the
    /// confirmation at a change.
    private let boardLenses: [LensDescription]
    private var reportedLens: LensDescription.Role?
    private var lensSwitchedAt: Double?
    /// The board's sensor's f-number, in tenths (a board of several lenses has each lens's).
    private let fNumberTenths: Int
    /// Until when gpsd's first answer after geotag was switched on may still refuse it.
    private var geotagCheckUntil: Double?

    init(controller: InterfaceController, model: CameraModel, fNumber: Double?, lenses: [LensDescription],
         gps: GPSStatus) {
        self.controller = controller
        state = ViewState(settings: model.settings, hasFocusDial: model.limits.hasFocusControl)
        state.gps = GPSIndicator(geotag: model.settings.geotag, status: gps)
        scales = DialScales(model)
        boardLenses = lenses
        fNumberTenths = fNumber.map { Int(($0 * 10).rounded()) } ?? 0
    }

    // MARK: notices and marks

    /// Puts `text` on screen for `seconds` from `now` (the one way a notice is shown).
    mutating func showNotice(_ text: String, at now: Double, for seconds: Double = ScreenModel.noticeSeconds) {
        state.notice = text
        noticeUntil = now + seconds
    }

    /// A photo was asked for at `now`: the screen marks it.
    mutating func photoRequested(at now: Double) { capturedAt = now }

    /// A held shutter's photo was asked for at `now`: in Enhanced RAW the photographer hears
    /// that a burst's photos are plain RAWs (a merge a tenth of a second would fall behind).
    mutating func burstPhotoRequested(at now: Double) {
        if state.settings.format.merges { showNotice(InterfaceText.burstTakesPlainRaw, at: now) }
        photoRequested(at: now)
    }

    /// Something on screen moves at `now`: the loop draws every vblank.
    func isAnimating(at now: Double) -> Bool {
        !controller.reveal.isSettled(at: now)
            || ((state.settings.mode == .pro || state.review != nil) && controller.fade.isFading(at: now))
            || controller.peaking(at: now) || controller.zoom.isRamping
            || now - capturedAt < ScreenModel.captureMarkSeconds || now < noticeUntil
            || state.review?.histogramShown == true
    }

    /// What is drawn over the picture this frame: the marks and how the layers are blended.
    /// (`shown`: the framing the picture under them was made with.)
    func frameOverlay(now: Double, layout: ScreenLayout, shown: Framing) -> InterfaceRenderer.FrameOverlay {
        let pro = state.settings.mode == .pro
        // (Review's overlay fades as the Pro dials do.)
        let fades = pro || state.review != nil
        var overlay = InterfaceRenderer.FrameOverlay(controlsOpacity: fades ? controller.fade.opacity(at: now) : 1,
                                                     reveal: controller.reveal.progress(at: now), zebras: state.zebras,
                                                     peaking: state.settings.focusPeaking && controller.peaking(at: now),
                                                     zebraPhase: Int(now * 30),
                                                     captureMark: 1 - (now - capturedAt) / ScreenModel.captureMarkSeconds)
        overlay.grid = state.settings.framingGrid
        overlay.meteringBox = state.settings.mode == .auto
            ? state.settings.meteringPoint?.box(viewfinder: layout.viewfinder, framing: shown) : nil
        people.lay(on: &overlay, crop: shown.crop, viewfinder: layout.viewfinder)
        return overlay
    }

    /// When a still screen next changes by itself (Pro's controls start to fade, the
    /// self-timer's next second), in seconds from `now`, at most half a second; nil: not by itself.
    func secondsUntilChange(at now: Double) -> Double? {
        let timer = (controller.selfTimer?.nextChange(after: now)
            ?? controller.intervalRun.flatMap { IntervalProgress.nextChange(of: $0, after: now) }).map { max(0.001, $0 - now) }
        guard state.settings.mode == .pro || state.review != nil, !controller.fade.isFaded(at: now) else {
            return timer.map { min(0.5, $0) }
        }
        return min(0.5, max(0.001, controller.fade.secondsUntilFade(at: now)), timer ?? .infinity)
    }

    /// The self-timer's countdown, and an interval run's shots and time to the next, on
    /// screen as they stand at `now`; how an interval run ended, said.
    mutating func followCountdown(at now: Double) {
        let left = controller.selfTimer?.secondsLeft(at: now)
        state.countdown = left.flatMap { $0 > 0 ? $0 : nil }
        state.interval = controller.intervalRun.map { IntervalProgress($0, at: now) }
        if let ending = controller.takeIntervalEnding() { showNotice(ending, at: now) }
    }

    // MARK: what the input changed

    /// The controller's settings are the screen's; geotag just switched on is checked
    /// against gpsd's first answer.
    mutating func settingsChanged(at now: Double) {
        if controller.model.settings.geotag && !state.settings.geotag { geotagCheckUntil = now + ScreenModel.geotagCheckSeconds }
        state.settings = controller.model.settings
    }

    /// The quick menu, the exposure lock and review as the controller has them.
    mutating func followControls() {
        state.menu = controller.menu
        state.exposureLocked = controller.locked
        state.review = controller.review?.screen
    }

    /// The review thread's newest item on screen.
    mutating func showReview(_ info: ReviewInfo?, cardIsEmpty: Bool) {
        controller.showReview(info, cardIsEmpty: cardIsEmpty)
        state.review = controller.review?.screen
    }

    /// Review closed by the camera (nothing to review).
    mutating func closeReview() {
        controller.closeReview()
        state.review = nil
    }

    /// The framing at `now` (the zoom, and where auto-zoom moved the crop), its zoom shown in
    /// tenths. `subject` is auto-zoom's subject predicted to `now`. (The crop moves within the
    /// zoom-1 picture: the camera's own zoom is asked only for what holds it.)
    mutating func frame(_ snapshot: SubjectSnapshot?, available: Bool, at now: Double) -> Framing {
        controller.autoZoomAvailable = available
        let subject = snapshot?.subject(at: now)
        framing = controller.framing(with: &autoZoom, subject: available ? subject : nil, extent: Framing.wholePicture,
                                     at: now)
        state.zoomTenths = Int((framing.zoom * 10).rounded(.down))
        state.autoZoom = switch autoZoom.phase {
        case _ where !available: .unavailable
        case nil: .off
        case .searching: .searching
        case .overridden: .paused
        default: snapshot?.subjectTapped == true ? .followingChosen : .following
        }
        // The people auto-zoom follows, for the marks over the picture.
        people.take(snapshot, subject: subject, following: autoZoom.phase != nil, at: now)
        return framing
    }

    // MARK: the camera's status

    /// Takes in the camera's status at `now` (`sensorChanged`: the sensor's report is new).
    mutating func take(_ status: CameraStatus, sensorChanged: Bool, now: Double) -> Effects {
        var effects = Effects()
        if sensorChanged { take(status.sensor, now: now, effects: &effects) }
        checkGeotagSwitch(status.gps, now: now, effects: &effects)
        state.gps = GPSIndicator(geotag: state.settings.geotag, status: status.gps)
        if state.remote != status.remote { takeRemoteReport(status.remote, now: now) }
        takePhotoReport(status.photo)
        takeMovieReport(status.movie, now: now)
        noticeCancelledPhotos(status.sensor.photosCancelled + status.photo.cancelled, at: now)
        noticeBracket(status.sensor.lastBracket, at: now)
        noticeTimelapse(status.timelapse, at: now)
        if state.notice != nil && now >= noticeUntil { state.notice = nil }
        state.savingCount = status.pendingSaves
        state.processing = status.merging
        if state.saveProblem != status.photo.saveProblem {
            state.saveProblem = status.photo.saveProblem
            controller.saveProblemShown = state.saveProblem != nil
        }
        if status.sensor.photoPixels != storagePolicy.sensorPixels {
            storagePolicy = StoragePolicy(sensorPixels: status.sensor.photoPixels)
        }
        if status.storageChecked {
            state.storage = storagePolicy.indicator(freeBytes: status.storageFreeBytes, readOnly: status.storageReadOnly,
                                                    format: state.settings.format)
            // The card went while it was reviewed: back to the viewfinder, whose banner says so.
            if state.storage == .missing && state.review != nil {
                closeReview()
                effects.reviewClosed = true
            }
            cardFreeBytes = status.storageFreeBytes
        }
        checkIntervalCard(at: now)
        return effects
    }

    /// An interval run's card: checked against the shots to come when the run starts (said
    /// when they will not all fit), and the run stopped when the card takes no more (full,
    /// gone or read-only), its shots so far kept.
    private mutating func checkIntervalCard(at now: Double) {
        guard let run = controller.intervalRun else { return }
        switch state.storage {
        case .missing: controller.stopInterval(because: "no card")
        case .readOnly: controller.stopInterval(because: "the card is read-only")
        case .low(let advice) where advice.level == .full: controller.stopInterval(because: "the card is full")
        default:
            guard intervalCardCheckedFor != run.startedAt, let free = cardFreeBytes else { return }
            intervalCardCheckedFor = run.startedAt
            if let fits = run.shortfall(freeBytes: free, bytesPerPhoto: storagePolicy.bytesPerShot(state.settings.format)) {
                showNotice(InterfaceText.intervalShortfall(fits: fits, of: run.remaining), at: now,
                           for: ScreenModel.noticeSeconds * 2)
            }
        }
        if let ending = controller.takeIntervalEnding() { showNotice(ending, at: now) }
    }

    /// The sensor's report: the camera's limits, whether it streams, the exposure read out,
    /// the histogram, the lenses.
    private mutating func take(_ report: SensorReport, now: Double, effects: inout Effects) {
        controller.burstAllowed = !report.stillsBySwitching
        takeLenses(report, now: now, effects: &effects)
        if let limits = report.limits, limits != controller.model.limits {
            noticeClamping(report.settings, now: now)
            // The dials' stops and the focus dial follow the camera; drawn again once. The
            // settings come fitted by the sensor thread (the file keeps what was chosen).
            controller.adopt(limits: limits, fittedSettings: report.settings)
            state.settings = controller.model.settings
            state.hasFocusDial = limits.hasFocusControl
            scales = DialScales(controller.model)
            effects.scalesChanged = true
        }
        state.screen = switch report.status {
        case .starting, .streaming: .live
        case .noCamera: .noCamera
        case .lost: .reconnecting
        }
        // The metered Kelvin is on screen only on Pro's WB dial while it is on Auto; elsewhere
        // its wobble must not cost a repaint.
        let kelvinShown = state.settings.mode == .pro && state.settings.whiteBalance == .auto
        state.readout = ExposureReadout(
            iso: controller.model.isoScale.nearest(to: ISOSpeed(report.iso)).value,
            shutter: controller.model.shutterScale.nearest(toSeconds: report.exposureSeconds),
            fNumberTenths: report.fNumber.map { Int(($0 * 10).rounded()) } ?? fNumberTenths,
            kelvin: kelvinShown ? (report.kelvin + 50) / 100 * 100 : state.readout.kelvin)
        if report.hasHistogram {
            for bin in 0..<histogram.count { histogram[bin] = report.histogram[bin] }
            effects.histogramChanged = true
        }
    }

    /// The lenses present and the one streaming: the buttons follow; a new lens is felt
    /// (a confirmation), and a focus set by hand on the lens before goes back to auto.
    private mutating func takeLenses(_ report: SensorReport, now: Double, effects: inout Effects) {
        guard !boardLenses.isEmpty else { return }
        let present = LensSet(boardLenses.filter { lens in
            report.lensesPresent & UInt8(1 << (LensDescription.Role.allCases.firstIndex(of: lens.role) ?? 0)) != 0
        })
        if present != controller.lenses {
            controller.setLenses(present, at: now)
            state.lenses = present
        }
        state.activeLens = present.lenses.firstIndex { $0.role == report.activeLens }
        guard report.activeLens != reportedLens else { return }
        defer { reportedLens = report.activeLens }
        guard reportedLens != nil, report.activeLens != nil else { return }
        effects.haptic = .confirm
        lensSwitchedAt = now
        if controller.focusAutomaticallyOnNewLens() {
            state.settings = controller.model.settings
            effects.settingsChanged = true
        }
    }

    /// A new camera's limits fit the manual ISO or shutter chosen (the lens switched to has
    /// a narrower range): said on screen, as the dial shows the value it could keep.
    private mutating func noticeClamping(_ fitted: CameraSettings, now: Double) {
        let chosen = controller.model.settings
        // Only across a switch of lens (at start, the dials simply show what the camera allows).
        guard chosen.mode == .pro, let switched = lensSwitchedAt, now - switched < 2 else { return }
        var changes: [String] = []
        if chosen.iso != fitted.iso, case .manual(let from) = chosen.iso, case .manual(let to) = fitted.iso {
            changes.append("ISO \(from.value) → \(to.value)")
        }
        if chosen.shutter != fitted.shutter, case .manual(let from) = chosen.shutter, case .manual(let to) = fitted.shutter {
            changes.append("\(from) → \(to)")
        }
        guard !changes.isEmpty else { return }
        showNotice(changes.joined(separator: ", ") + " · this lens's limit", at: now)
    }

    /// After geotag is switched on, gpsd's first answer decides: where there is no GPS to ask
    /// (no gpsd, no receiver) the switch goes back off and the reason shows, with where to
    /// turn it on later (docs/camera.md, Geotagging). A receiver still searching keeps it on.
    private mutating func checkGeotagSwitch(_ gps: GPSStatus, now: Double, effects: inout Effects) {
        guard let until = geotagCheckUntil else { return }
        if !state.settings.geotag || gps == .searching || gps == .fix || now > until {
            geotagCheckUntil = nil
            return
        }
        guard let reason = gps.refusal else { return }
        geotagCheckUntil = nil
        if controller.refuseGeotag() {
            state.settings = controller.model.settings
            effects.settingsChanged = true
        }
        showNotice(InterfaceText.geotagRefused(reason), at: now, for: ScreenModel.refusalNoticeSeconds)
    }

    /// The last photo saved: its thumbnail in the corner.
    private mutating func takePhotoReport(_ photo: PhotoReport) {
        guard let number = photo.lastNumber, state.lastPhoto?.number != number, photo.thumbnailWidth > 0 else { return }
        storagePolicy.recordSaved(rawBytes: photo.lastRawBytes, jpegBytes: photo.lastJPEGBytes)
        state.lastPhoto = PhotoThumbnail(number: number, rgb: photo.thumbnail, width: photo.thumbnailWidth,
                                         height: photo.thumbnailHeight)
    }

    /// The movie under way on screen (the red dot, its time, the card's time left), and what
    /// the movie thread had to say (a recording stopped by a full card, one that could not start).
    private mutating func takeMovieReport(_ movie: MovieReport, now: Double) {
        state.recording = movie.recording
            ? RecordingIndicator(elapsedSeconds: Int(movie.elapsedSeconds), secondsLeft: movie.secondsLeft) : nil
        controller.recording = movie.recording
        if movie.messagesSaid != movieMessagesShown, let message = movie.message {
            showNotice(message, at: now, for: ScreenModel.refusalNoticeSeconds)
        }
        movieMessagesShown = movie.messagesSaid
    }

    /// Photos cancelled under extreme memory pressure (on the sensor thread before their
    /// frame was taken, or on the photo thread before they were developed), `cancelled` in
    /// all, are said on screen.
    /// A timelapse's progress, then its movie (or why none was made).
    /// The remote's report: shown on its sheet and icon; the Remote line says why it cannot
    /// come on where it cannot. Pairing just locked says so at once.
    private mutating func takeRemoteReport(_ report: RemoteReport, now: Double) {
        if report.lockedSeconds != nil && state.remote.lockedSeconds == nil { showNotice(InterfaceText.pairingLocked, at: now) }
        state.remote = report
        controller.remoteUnavailable = report.unavailableReason
    }

    private mutating func noticeTimelapse(_ report: TimelapseReport, at now: Double) {
        guard report != timelapseShown else { return }
        let shown = timelapseShown ?? report
        timelapseShown = report
        if report.made > shown.made, let name = report.lastName {
            showNotice(InterfaceText.timelapseSaved(name: name, frames: report.lastFrames, seconds: report.lastSeconds), at: now)
        } else if report.refused > shown.refused, let why = report.lastRefusal {
            showNotice(why, at: now)
        } else if let percent = report.percent {
            showNotice(InterfaceText.timelapseProgress(percent), at: now)
        }
    }

    /// A bracket that could not take every frame as asked says what it kept.
    private mutating func noticeBracket(_ outcome: BracketOutcome?, at now: Double) {
        guard let outcome, outcome != bracketShown else { return }
        bracketShown = outcome
        guard !outcome.isComplete else { return }
        showNotice(InterfaceText.bracketShort(frames: outcome.frames, taken: outcome.taken, notAsAsked: outcome.notAsAsked),
                   at: now)
    }

    private mutating func noticeCancelledPhotos(_ cancelled: Int, at now: Double) {
        defer { cancelledShown = cancelled }
        // (A loop opened again on another display does not say old news.)
        guard cancelledShown >= 0, cancelled > cancelledShown else { return }
        let count = cancelled - cancelledShown
        showNotice(count == 1 ? "1 photo cancelled – memory low" : "\(count) photos cancelled – memory low", at: now)
    }
}
