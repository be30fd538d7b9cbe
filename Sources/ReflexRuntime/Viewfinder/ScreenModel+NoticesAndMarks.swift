import ReflexCore
import ReflexUI

/// Notices and marks: the one way a notice is shown, the mark of a photo taken, what moves on
/// screen by itself (and when a still screen next changes), what is drawn over the picture,
/// the self-timer's and an interval run's countdown.
extension ScreenModel {
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
}
