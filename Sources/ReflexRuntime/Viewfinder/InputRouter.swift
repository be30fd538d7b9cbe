import ReflexCore
import ReflexHardware
import ReflexSystem
import ReflexUI

/// The photographer's input, on the realtime loop's thread: each event through the
/// interface's rules (the screen model's controller), and what they decide sent where it
/// goes — the sensor's mailbox, the settings file, the GPS client, the vibrator, the movie
/// thread, the save queue. A wake-up's events are felt as one pulse and send the settings
/// once. Nothing here allocates.
final class InputRouter {
    /// A wake-up's events taken together.
    struct Batch {
        /// What Auto had metered, for the dials' first stop out of Auto.
        let metered: MeteredValues
        var settingsChanged = false
        var felt: HapticEffect?
        /// The oldest event (kernel time) with something to see: the wait until the flip
        /// that shows it is measured from it.
        var oldestVisible: Double?
    }

    private let mailbox: ControlMailbox?
    private let settingsWriter: SettingsWriter?
    private let gps: GPSDClient?
    /// The remote's switch (nil: this camera runs no remote, as in a test).
    private let remote: RemoteSwitch?
    /// The USB keeper's switch (nil: no USB, as in a test).
    private let usb: USBSwitch?
    private let haptics: Haptics?
    private let movies: MovieRecorder?
    private let saveDecisions: HandOffQueue<SaveDecision>?
    private let analysis: SubjectAnalysis?
    /// The board's status LED (the self-timer blinks it), if it names one.
    let statusLight: StatusLight?
    /// The panel's backlight, dimmed while an interval run waits (nil: the board names none).
    let backlight: Backlight?
    /// Makes an interval run's timelapse at its end (nil: none made, as in a test).
    let timelapse: TimelapseMaker?
    /// Review's thread (nil: no card to review, as in a benchmark).
    let reviewer: Reviewer?

    init(mailbox: ControlMailbox?, settingsWriter: SettingsWriter?, gps: GPSDClient?, haptics: Haptics?,
         movies: MovieRecorder?, saveDecisions: HandOffQueue<SaveDecision>?, analysis: SubjectAnalysis?, reviewer: Reviewer?,
         statusLight: StatusLight? = nil, backlight: Backlight? = nil, timelapse: TimelapseMaker? = nil,
         remote: RemoteSwitch? = nil, usb: USBSwitch? = nil) {
        (self.mailbox, self.settingsWriter, self.gps, self.remote, self.usb) = (mailbox, settingsWriter, gps, remote, usb)
        (self.haptics, self.movies, self.saveDecisions, self.analysis) = (haptics, movies, saveDecisions, analysis)
        (self.reviewer, self.statusLight, self.backlight, self.timelapse) = (reviewer, statusLight, backlight, timelapse)
    }

    /// One event through the interface's rules, at its own kernel time `time`: a press is
    /// the photo's moment.
    func apply(_ event: InputEvent, at time: Double, now: Double, to model: inout ScreenModel, batch: inout Batch) {
        let menuBefore = model.controller.menu
        let outcome = model.controller.handle(event, at: time, metered: batch.metered)
        carryOut(outcome, at: time, now: now, menuBefore: menuBefore, model: &model, batch: &batch)
    }

    /// A phone's control (the remote), at the time its request came: as `apply` does an event.
    func apply(_ control: RemoteControl, at time: Double, now: Double, to model: inout ScreenModel, batch: inout Batch) {
        let menuBefore = model.controller.menu
        let outcome = model.controller.handleRemote(control, at: time, metered: batch.metered)
        carryOut(outcome, at: time, now: now, menuBefore: menuBefore, model: &model, batch: &batch)
    }

    private func carryOut(_ outcome: InterfaceController.Outcome, at time: Double, now: Double, menuBefore: QuickMenu,
                          model: inout ScreenModel, batch: inout Batch) {
        if outcome.settingsChanged { batch.settingsChanged = true }
        if outcome.settingsChanged || outcome.haptic != nil || outcome.notice != nil || outcome.lockChanged
            || model.controller.menu != menuBefore || outcome.reviewChanged || outcome.review != nil {
            batch.oldestVisible = min(batch.oldestVisible ?? time, time)
        }
        batch.felt = HapticEffect.stronger(batch.felt, outcome.haptic)
        if let decision = outcome.saveDecision { _ = saveDecisions?.send(decision) }
        if let pressedAt = outcome.capture { takePhoto(pressedAt: pressedAt, now: now, model: &model) }
        if outcome.record { record(now: now, model: &model) }
        if let notice = outcome.notice { model.showNotice(notice, at: now) }
        if let tap = outcome.subjectTap {
            // The point on the picture, in the zoom-1 picture the analysis works in.
            let crop = model.framing.crop
            analysis?.tap(x: crop.x + tap.x * crop.width, y: crop.y + tap.y * crop.height)
        }
        if let command = outcome.review { review(command, now: now, model: &model) }
        if outcome.forgetPhones { remote?.forgetEveryPhone() }
        if outcome.lockChanged {
            model.followControls()
            mailbox?.lockExposure(model.controller.locked)
        }
    }

    /// After a wake-up's events: one pulse for all of them (a fast spin's detents arrive
    /// together), and the settings out once.
    func settle(_ batch: Batch, model: inout ScreenModel, now: Double) {
        if let felt = batch.felt { haptics?.play(felt) }
        model.followControls()
        guard batch.settingsChanged else { return }
        model.settingsChanged(at: now)
        publish(model.state.settings)
    }

    /// What the camera's status asked for: a pulse, the settings sent on, review closed.
    func carryOut(_ effects: ScreenModel.Effects, settings: CameraSettings) {
        if let haptic = effects.haptic { haptics?.play(haptic) }
        if effects.reviewClosed { reviewer?.send(.close) }
        if effects.settingsChanged { publish(settings) }
    }

    /// What the drive modes make due at `now`: a held shutter's burst photos; the self-timer's
    /// seconds (a tick in the hand, the status light blinking) and its photos, an interval's
    /// photos and, when a run ends (its count, a press, a full card), its timelapse; the panel
    /// dimmed during a long run. (The light and the panel are written only when they change.)
    func followDrive(model: inout ScreenModel, now: Double) {
        while let due = model.controller.nextBurstPhoto(at: now) { takePhoto(pressedAt: due, now: now, burst: true, model: &model) }
        if model.controller.countdownAnnouncement(at: now) != nil { haptics?.play(.tick) }
        while let due = model.controller.nextTimedPhoto(at: now) {
            takePhoto(pressedAt: due, now: now, intervalRun: model.controller.timedPhotoRun, model: &model)
        }
        if let ended = model.controller.takeEndedRun() { makeTimelapse(of: ended, now: now, model: &model) }
        statusLight?.set(model.controller.selfTimer?.lightOn(at: now) ?? false)
        backlight?.dim(model.controller.screenDimmed(at: now))
    }

    /// The framing, to the sensor's zoom control (as far as it holds the crop: the camera's
    /// own zoom magnifies the middle) and the movie.
    func follow(_ framing: Framing) {
        mailbox?.requestZoom(framing.centredZoomHoldingCrop)
        movies?.setFraming(framing)
    }

    /// A press of the shutter (a single one, or a burst's as it falls due): the sensor thread
    /// takes the frame under way at `pressedAt`; the screen marks it at once.
    /// `intervalRun`: the run whose photo it is (its timelapse is made of them).
    func takePhoto(pressedAt: Double, now: Double, burst: Bool = false, intervalRun: Int? = nil, model: inout ScreenModel) {
        guard model.state.screen == .live else { return }
        // Nearly full or full: said prominently at the press (the photo is still taken: a
        // JPEG may fit where a RAW does not, and a full card's photo is held, not lost).
        if case .low(let advice) = model.state.storage, let warning = advice.atPress {
            model.showNotice(warning, at: now)
        }
        // In the Bracketing drive a press is the whole bracket (a burst's photos are plain).
        let drive = model.state.settings.drive
        mailbox?.requestCapture(at: pressedAt, framing: model.framing,
                                bracket: drive.mode == .bracketing && !burst ? drive.bracket : nil, intervalRun: intervalRun)
        if burst { model.burstPhotoRequested(at: now) } else { model.photoRequested(at: now) }
    }

    /// An interval run ended having taken photos: its timelapse is made where the settings
    /// ask for one (the timelapse thread says its progress, or why it made none).
    private func makeTimelapse(of ended: DriveControl.EndedRun, now: Double, model: inout ScreenModel) {
        guard let rate = model.state.settings.drive.timelapseFramesPerSecond, let timelapse else { return }
        if !timelapse.make(TimelapseMaker.Job(run: ended.run, photos: ended.photos, framesPerSecond: rate)) {
            model.showNotice(InterfaceText.timelapseBusy, at: now)
        }
    }

    /// Review's command to its thread; without one (no card folder) review closes at once.
    private func review(_ command: ReviewRequest, now: Double, model: inout ScreenModel) {
        guard let reviewer else {
            model.closeReview()
            model.showNotice(InterfaceText.storageMissing.title, at: now)
            return
        }
        // (Refused only with 32 commands waiting: the thread is busy with them.)
        reviewer.send(command)
    }

    /// The review thread's newest frame, its item and overlay taken into the screen's state;
    /// true if one came (a picture to show).
    func followReview(_ model: inout ScreenModel) -> Bool {
        guard let reviewer, model.controller.review != nil, let frame = reviewer.newestFrame() else { return false }
        model.showReview(frame.info, cardIsEmpty: frame.cardIsEmpty)
        return true
    }

    /// The record button: the movie thread starts or stops (it reports back).
    private func record(now: Double, model: inout ScreenModel) {
        guard model.state.screen == .live else { return }
        guard let movies else {
            model.showNotice(InterfaceText.noRecording, at: now)
            return
        }
        // (Refused only with eight presses still waiting: the thread is busy with them.)
        movies.send(.toggle)
    }

    /// The settings to the sensor, the file, the GPS client, the remote and the USB keeper.
    private func publish(_ settings: CameraSettings) {
        mailbox?.send(settings)
        settingsWriter?.save(settings)
        gps?.setEnabled(settings.geotag)
        remote?.set(on: settings.remote)
        usb?.set(settings.usb)
    }
}
