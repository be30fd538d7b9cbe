import ReflexCore
import ReflexHardware
import ReflexISP

/// The exposure side of the sensor thread: the controller that decides each frame's exposure
/// and colour (`ExposureController`, made afresh for each stream), the preview ISP that
/// collects its statistics every few frames, and the sending of what they decide to the
/// camera — the photographer's settings, Auto's metering, the half press's hold, a bracket's
/// steps. A control the driver refuses is said and the stream goes on: only a lost camera
/// (`CameraError.disconnected`) ends it.
struct SensorExposure {
    /// The stream's controller (nil before the first stream). Changed in place, never copied
    /// out to change: a copy would copy its history.
    private(set) var controller: ExposureController?
    /// The statistics of the frame metered last (its histogram goes to the screen).
    private(set) var statistics = FrameStatistics()
    private var isp: PreviewISP?
    private let log: SensorPipeline.Log

    init(log: @escaping SensorPipeline.Log) { self.log = log }

    /// A stream just started in `mode`: a controller from the sensor's exposure now, and an
    /// ISP for its statistics. (The ISP is kept when the new stream fits it: its tables take
    /// a while to make, and a lens switch should show the new lens's first frame at once.)
    mutating func streamStarted(_ mode: CameraSession.Mode, session: CameraSession, calibration: SensorCalibration) throws(CameraError) {
        let current = try session.currentExposure()
        controller = ExposureController(sensor: session.exposureModel, color: calibration.color,
                                        levels: mode.rawFormat.map { (session.blackLevel, $0.maximumValue) },
                                        current: current, delayFrames: calibration.controlDelayFrames)
        let fits = isp.map { $0.maximumSourceWidth >= mode.width && $0.maximumSourceHeight >= mode.height } ?? false
        isp = mode.rawFormat == nil ? nil : fits ? isp
            : PreviewISP(maximumSourceWidth: mode.width, maximumSourceHeight: mode.height, maximumOutputWidth: 16)
    }

    /// The exposure frame `sequence` had by the controls' history (nil before a stream).
    func taken(forFrame sequence: UInt32) -> ExposureSetting? { controller?.taken(forFrame: sequence) }

    /// The exposure `frame` had: the sensor's own word where it gives one, else the controls'
    /// history; the digital gain is always the ISP's, Reflex's own.
    func taken(by frame: CapturedFrame) -> ExposureSetting {
        let history = controller?.taken(forFrame: frame.sequence) ?? ExposureSetting(exposure: 1.0 / 30, analogGain: 1)
        guard let reported = frame.sensorExposure else { return history }
        return ExposureSetting(exposure: reported.exposure, analogGain: reported.analogGain, digitalGain: history.digitalGain)
    }

    /// Settings fitted to this camera, from the frame after `sequence` on: a new manual
    /// exposure to the sensor, white balance and the lens's controls as they changed.
    mutating func apply(_ fitted: CameraSettings, afterFrame sequence: UInt32?, session: CameraSession) throws(CameraError) {
        guard controller != nil else { return }
        let change = controller!.apply(fitted, afterFrame: sequence)
        if let wanted = change.exposure {
            // A control the driver refuses is reported and Auto's full limits kept: only a
            // lost camera ends the stream, or the same saved settings would end every restart.
            do {
                let applied = try session.applyExposure(wanted)
                controller!.sent(applied, afterFrame: sequence)
                log("camera: \(change.exposureNote ?? "exposure") → \(session.describe(applied))")
            } catch .disconnected(let path) {
                throw CameraError.disconnected(path)
            } catch {
                log("camera: cannot set the manual exposure (\(error)); Auto exposure keeps it")
                controller!.manualRefused()
            }
        }
        if let note = change.whiteBalanceNote { log("camera: " + note) }
        if change.lensChanged { try session.applyLens(fitted) }
    }

    /// Exposure and white balance held (a half press) or free again, the focus with them.
    mutating func hold(_ locked: Bool, settings: CameraSettings, session: CameraSession) throws(CameraError) {
        guard controller != nil, controller!.locked != locked else { return }
        controller!.locked = locked
        log(locked ? "camera: exposure and white balance held (half press)" : "camera: exposure and white balance free again")
        try session.holdFocus(locked, settings: settings)
    }

    /// A bracket's next exposure goes to the sensor after each frame, so its frames are
    /// consecutive ones; then the base again. (Auto exposure waits meanwhile: `meter`.)
    /// A sensor that refuses a value ends the bracket's sending; the frames say what they had.
    /// `holdGain`: Pro's gain stays, the bracket steps the time alone.
    mutating func stepBracket(_ shutter: ShutterQueue, afterFrame sequence: UInt32, session: CameraSession, holdGain: Bool,
                              delayFrames: Int) throws(CameraError) {
        // (A still mode's bracket sets each still's exposure as it switches: `serveBySwitching`.)
        guard shutter.stillFrames == nil, controller != nil else { return }
        if let plan = shutter.bracketToBegin {
            // Around what the sensor is set to (Auto's newest, or Pro's), within the
            // exposure times a frame of this stream can have.
            let limits = session.exposureModel.limits
            let longest = max(min(limits.exposure.upperBound, 1 / (session.mode?.framesPerSecond ?? 30)), limits.exposure.lowerBound)
            shutter.bracket = BracketRun(plan: plan, base: controller!.requested, times: limits.exposure.lowerBound...longest,
                                         gains: limits.analogGain, holdGain: holdGain, delayFrames: delayFrames)
        }
        guard let next = shutter.bracket?.nextSetting else { return }
        do {
            let applied = try session.applyExposure(next)
            controller!.sent(applied, afterFrame: sequence)
        } catch .disconnected(let path) {
            throw CameraError.disconnected(path)
        } catch {
            log("camera: cannot set the bracket's exposure (\(error))")
        }
        shutter.bracket?.sent(afterFrame: sequence)
    }

    /// Every few frames (`frameCount` so far): statistics, Auto white balance and Auto
    /// exposure. `spot`: a spot tapped in Auto, metered on its own (`ExposureController.meter`).
    /// True if metered.
    mutating func meter(_ frame: CapturedFrame, layout: RawLayout?, frameCount: Int, spot: MeteringPoint?,
                        session: CameraSession) throws(CameraError) -> Bool {
        guard let isp, let layout, controller?.meters(frameCount: frameCount) == true,
              let parameters = controller!.parameters(forFrame: frame.sequence) else { return false }
        isp.setParameters(parameters, format: layout.format)
        isp.collectStatistics(frame.bytes.baseAddress!, layout: layout, spot: spot?.rect(width: layout.width, height: layout.height),
                              into: &statistics)
        if let next = controller!.meter(statistics, frame: frame.sequence), let applied = try session.applyAutoExposure(next) {
            controller!.sent(applied, afterFrame: frame.sequence)
        }
        return true
    }
}
