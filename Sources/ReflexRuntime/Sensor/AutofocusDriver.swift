import ReflexCore
import ReflexHardware
import ReflexISP

/// Reflex's own autofocus on the sensor thread, where the lens has a motor: a tap in Auto
/// (or Auto's centre spot) starts a contrast sweep (`TapFocus`), each frame moves the lens
/// on, and the outcome goes to the log. A sensor with an autofocus of its own keeps it.
struct AutofocusDriver {
    private var sweep: TapFocus?
    private let log: SensorPipeline.Log

    init(log: @escaping SensorPipeline.Log) { self.log = log }

    /// The spot (or the mode) changed to `settings`: a sweep starts where Auto focuses, on
    /// a frame of `width` by `height`, from the frame after `sequence`.
    mutating func settingsChanged(to settings: CameraSettings, session: CameraSession, width: Int, height: Int,
                                  delayFrames: Int, afterFrame sequence: UInt32?, now: Double) throws(CameraError) {
        sweep = nil
        guard settings.mode == .auto, session.hasFocusMotor, width > 0, height > 0 else { return }
        let box: PixelRect
        if let spot = settings.meteringPoint {
            box = spot.rect(width: width, height: height)
        } else if session.hasCameraAutofocus {
            // (Its own autofocus on again: the lens settings as Auto has them.)
            try session.applyLens(settings)
            return
        } else {
            box = PixelRect.centred(in: width, height, scale: 1.0 / 3)
        }
        let started = TapFocus(box: box, lens: session.focus, afterFrame: sequence ?? 0, delayFrames: delayFrames, now: now)
        try session.moveLens(to: started.target)
        sweep = started
        log("camera: autofocus sweeping the lens for the " + (settings.meteringPoint.map {
            "spot at (\(Formatting.fixed($0.x, 2)), \(Formatting.fixed($0.y, 2)))" } ?? "frame's middle"))
    }

    /// One frame of a sweep: measured if the lens was in place for it, the lens moved on.
    /// Where the lens rests when the sweep has ended with this frame, else nil.
    mutating func take(_ frame: CapturedFrame, mode: CameraSession.Mode, session: CameraSession, delayFrames: Int,
                       now: Double) throws(CameraError) -> FocusPosition? {
        guard sweep != nil, !frame.corrupted, let layout = mode.rawLayout, frame.bytes.count >= mode.frameBytes,
              let next = sweep!.take(frame.bytes.baseAddress!, sequence: frame.sequence, layout: layout,
                                     blackLevel: session.blackLevel, delayFrames: delayFrames)
        else { return nil }
        try session.moveLens(to: next)
        guard let outcome = sweep!.sweep.outcome else { return nil }
        let seconds = now - sweep!.startedAt
        switch outcome {
        case .focused(let position):
            log("camera: autofocus sharpest at \(FocusPosition(position)) after \(ContrastAutofocus.steps) positions in "
                + "\(Formatting.fixed(seconds, 1)) s")
        case .noContrast(let position):
            log("camera: autofocus found nothing sharp to focus on; the lens back at \(FocusPosition(position))")
        }
        sweep = nil
        return next
    }
}
