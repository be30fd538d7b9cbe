import ReflexCore
import ReflexUI

/// The camera's status taken in each turn: the GPS, the remote, the photo, movie, timelapse and
/// bracket reports and the notices they give, the card and an interval run's check against it
/// (the sensor's own report is in ScreenModel+SensorReport.swift).
extension ScreenModel {
    /// Takes in the camera's status at `now` (`sensorChanged`: the sensor's report is new).
    mutating func take(_ status: CameraStatus, sensorChanged: Bool, now: Double) -> Effects {
        var effects = Effects()
        if sensorChanged { take(status.sensor, now: now, effects: &effects) }
        checkGeotagSwitch(status.gps, now: now, effects: &effects)
        state.gps = GPSIndicator(geotag: state.settings.geotag, status: status.gps)
        state.usb = status.usb
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

    /// The remote's report: shown on its sheet and icon; the Remote line says why it cannot
    /// come on where it cannot. Pairing just locked says so at once.
    private mutating func takeRemoteReport(_ report: RemoteReport, now: Double) {
        if report.lockedSeconds != nil && state.remote.lockedSeconds == nil { showNotice(InterfaceText.pairingLocked, at: now) }
        state.remote = report
        controller.remoteUnavailable = report.unavailableReason
    }

    /// A timelapse's progress, then its movie (or why none was made).
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

    /// Photos cancelled under extreme memory pressure (on the sensor thread before their
    /// frame was taken, or on the photo thread before they were developed), `cancelled` in
    /// all, are said on screen.
    private mutating func noticeCancelledPhotos(_ cancelled: Int, at now: Double) {
        defer { cancelledShown = cancelled }
        // (A loop opened again on another display does not say old news.)
        guard cancelledShown >= 0, cancelled > cancelledShown else { return }
        let count = cancelled - cancelledShown
        showNotice(count == 1 ? "1 photo cancelled – memory low" : "\(count) photos cancelled – memory low", at: now)
    }
}
