import ReflexCore
import ReflexISP
import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// One camera, streaming: the session finds the device the choice names, sets its format
/// and frame rate, maps its buffers, and holds its controls (exposure and gain, lens, zoom)
/// for the mode it streams. Frames are taken with `nextFrame` and given back with `giveBack`.
/// `stop` and `start` again (after `choose`) reconfigure it to another mode or another
/// device; `streamCount` grows each time it streams again. One thread uses a session.
public final class CameraSession {
    public typealias Log = @Sendable (String) -> Void

    public private(set) var choice: CameraChoice
    public private(set) var calibration: SensorCalibration
    private let log: Log
    private var camera: CameraDevice?
    private var device: CaptureDeviceInfo?
    /// The device as found (its controls are described again for each mode).
    private var found: CaptureDeviceInfo?
    /// The frame rate asked for the preview's mode (asked again after a still).
    private var requestedRate: Int?
    public private(set) var mode: Mode?
    private var exposureControls: ExposureControls?
    private var lens: LensControls?
    private var zoom: SensorZoom?
    private var zoomValue: Int64?
    /// Which zoom each frame had: a zoom lens, like exposure, answers a few frames late.
    private var zoomHistory = ControlHistory<Double>(initial: 1)
    /// Streams started so far (a new mode, a new camera, or the same one back).
    public private(set) var streamCount = 0
    private var controlFailureReported = false
    /// Reads each frame's exposure from the sensor's embedded data, in the mode streaming.
    private var embeddedReader: EmbeddedDataReader?
    private var embeddedProblemReported = false

    /// The time a still mode's first frame is waited for in (a stepped simulated sensor's
    /// clock in tests).
    private let clock: TimeSource

    public init(choice: CameraChoice, calibration: SensorCalibration, clock: TimeSource = .monotonic, log: @escaping Log) {
        self.clock = clock
        self.choice = choice
        self.calibration = calibration
        self.log = log
    }

    deinit { stop() }

    /// Another camera or mode: streamed from the next `start`.
    public func choose(_ choice: CameraChoice) { self.choice = choice }

    /// Another of the board's lenses: its camera and its own calibration, from the next `start`.
    public func choose(_ choice: CameraChoice, calibration: SensorCalibration) {
        self.choice = choice
        self.calibration = calibration
    }

    public var isStreaming: Bool { camera != nil }

    /// Readable when a frame may be taken (-1 while not streaming).
    public var descriptor: Int32 { camera?.descriptor ?? -1 }

    /// The device the choice names, if it is there and streams a format Reflex shows.
    public func findCamera() -> CaptureDeviceInfo? {
        switch choice.source {
        case .simulated(let style, _, _, _, _): SimulatedCamera.info(style)
        case .videoFile(let path, _): (try? VideoFootage(path: path)).map(SimulatedCamera.info(footage:))
        case .v4l2(let devFolder, let path):
            CaptureDeviceProbe.scan(devFolder: devFolder).devices.first {
                (path == nil || $0.path == path) && StreamFormatChoice.best(of: $0.formats.map(\.fourCC.code)) != nil
            }
        }
    }

    /// Opens the camera and streams its best format in the chosen mode; false when there is
    /// no camera to open.
    public func start() throws(CameraError) -> Bool {
        stop()
        guard var found = findCamera() else { return false }
        let opened: CameraDevice
        switch choice.source {
        case .simulated(let style, let pace, let faults, let magnification, let rendering):
            opened = SimulatedCamera(style: style, pace: pace, faults: faults.damage, magnification: magnification,
                                     rendering: rendering)
        case .videoFile(let path, let pace):
            do {
                opened = SimulatedCamera(footage: try VideoFootage(path: path), pace: pace)
            } catch {
                throw CameraError.failed("video file sensor: \(error)", code: EIO)
            }
        case .v4l2(let devFolder, _):
            // Behind a media controller, the sensor's subdevice has the controls and the
            // formats are set along the graph.
            if let place = MediaCameraPlace.find(videoPath: found.path, devFolder: devFolder) {
                let camera = try MediaControllerCamera(place: place, node: found)
                guard StreamFormatChoice.best(of: camera.info.formats.map(\.fourCC.code)) != nil else {
                    throw CameraError.failed("\(found.path): \(place.sensorName) sends no format Reflex shows", code: EINVAL)
                }
                (opened, found) = (camera, camera.info)
            } else {
                opened = try V4L2Camera(path: found.path)
            }
        }
        let fourCC = StreamFormatChoice.best(of: found.formats.map(\.fourCC.code))!
        let format = try opened.setFormat(fourCC: fourCC, width: choice.width ?? calibration.streamWidth,
                                          height: choice.height ?? calibration.streamHeight)
        if let camera = opened as? MediaControllerCamera { log("camera: media controller \(camera.routeDescription)") }
        requestedRate = choice.framesPerSecond ?? calibration.previewFramesPerSecond
        let rate = try requestedRate.flatMap { fps throws(CameraError) in try opened.setFrameRate(fps) }
        try opened.start(bufferCount: 4)
        let streaming = Mode(path: found.path, card: found.card, fourCC: format.pixelformat, width: Int(format.width),
                             height: Int(format.height), bytesPerLine: Int(format.bytesperline),
                             rawFormat: RawFormat(v4l2FourCC: format.pixelformat), framesPerSecond: rate)
        camera = opened
        mode = streaming
        self.found = found
        streamCount += 1
        log("camera: streaming \(found.path) (\(found.card), driver \(found.driver)) \(FourCC(format.pixelformat)) "
            + "\(streaming.width)x\(streaming.height), \(streaming.bytesPerLine) bytes a line"
            + (rate.map { " at \(Int($0.rounded())) fps" } ?? "")
            + (streaming.rawFormat.map { ", raw \($0)" } ?? ", not raw: no metering"))
        describeControls(found, opened, streaming)
        if let pattern = calibration.testPattern { log("camera: " + TestPattern.apply(pattern, to: opened, device: found)) }
        fitBlackLevel(streaming)
        return true
    }

    /// The controls as the camera describes them for this mode (a CSI sensor's exposure range
    /// follows its frame length).
    private func describeControls(_ found: CaptureDeviceInfo, _ camera: CameraDevice, _ mode: Mode, quietly: Bool = false) {
        let described = found.describingControlsNow(camera)
        device = described
        let exposure = ExposureControls(
            device: described, calibration: calibration,
            measuredLineTime: ExposureControls.measureLineTime(camera, device: described, width: mode.width),
            frameLength: ExposureControls.measureFrameLength(camera, device: described, height: mode.height))
        exposureControls = exposure
        if !quietly { log("camera: " + exposure.summary) }
        lens = LensControls(device: described, picturesAreRaw: mode.rawFormat != nil)
        zoom = SensorZoom(device: described, calibration: calibration)
        zoomValue = nil
        zoomHistory = ControlHistory(initial: 1, delayFrames: calibration.controlDelayFrames)
        // Embedded lines are the mode's lines on the link: as wide, as packed.
        let bits = mode.rawFormat?.bitsPerSample ?? 8
        embeddedReader = EmbeddedDataReader(exposure: calibration.embeddedExposureRegister, gain: calibration.embeddedGainRegister,
                                            packing: EmbeddedDataPacking(bitsPerSample: bits),
                                            lineLength: mode.width * bits / 8)
        embeddedProblemReported = false
        if let zoom, !quietly { log("camera: " + zoom.summary) }
        controlFailureReported = false
    }

    /// Stops streaming and closes the camera; safe to call twice.
    public func stop() {
        camera?.stop()
        camera = nil
        mode = nil
    }

    // MARK: a still mode

    /// The Board's `stills = switch`, as rpicam-still works without a full-resolution
    /// stream: the sensor is switched to its still mode (`width`×`height`) for one frame and
    /// back to the preview's. `exposure` is applied in each mode's own line time; `skipping`
    /// frames a sensor may spoil while it settles are dropped. The frame is copied into
    /// `copy`; returns when it was in hand (monotonic seconds: the lag a photographer has,
    /// whatever a driver stamps). The preview then streams again from sequence 0: the caller
    /// takes it as a new stream (and polls the new `descriptor`).
    public func captureStill(width: Int, height: Int, exposure: ExposureSetting, parameters: ISPParameters?,
                             sensorZoom: Double, skipping: Int, into copy: FrameCopy) throws(CameraError) -> Double {
        guard let camera, let preview = mode, let found else { throw CameraError.failed("no stream to switch from", code: EINVAL) }
        camera.stop()
        let inHand: Double
        do {
            let format = try camera.setFormat(fourCC: preview.fourCC, width: width, height: height)
            let still = Mode(path: preview.path, card: preview.card, fourCC: format.pixelformat, width: Int(format.width),
                         height: Int(format.height), bytesPerLine: Int(format.bytesperline),
                         rawFormat: RawFormat(v4l2FourCC: format.pixelformat), framesPerSecond: nil)
            describeControls(found, camera, still, quietly: true)
            let applied = (try? applyExposure(exposure)) ?? exposure
            try camera.start(bufferCount: 2)
            var frame = try camera.firstWholeFrame(skipping: skipping, longestExposure: applied.exposure, clock: clock)
            readEmbeddedExposure(of: &frame)
            inHand = clock.now()
            // What the frame had: the sensor's own report, else its controls read back (not
            // what was asked: a bracket's frames are checked against it); the ISP's digital
            // gain is Reflex's.
            let held = frame.sensorExposure ?? (try? exposureControls?.current(camera)) ?? applied
            let exposure = ExposureSetting(exposure: held.exposure, analogGain: held.analogGain, digitalGain: applied.digitalGain)
            copy.fill(SensorFrame(bytes: frame.bytes, mode: still, sequence: frame.sequence,
                                  timestampNanoseconds: frame.timestampNanoseconds, exposure: exposure,
                                  parameters: parameters, sensorZoom: sensorZoom))
            try camera.requeue(frame)
        } catch {
            try? backToPreview(camera, preview, found, exposure: exposure)
            throw error
        }
        try backToPreview(camera, preview, found, exposure: exposure)
        return inHand
    }

    private func backToPreview(_ camera: CameraDevice, _ preview: Mode, _ found: CaptureDeviceInfo,
                               exposure: ExposureSetting) throws(CameraError) {
        camera.stop()
        _ = try camera.setFormat(fourCC: preview.fourCC, width: preview.width, height: preview.height)
        _ = try requestedRate.flatMap { fps throws(CameraError) in try camera.setFrameRate(fps) }
        describeControls(found, camera, preview, quietly: true)
        _ = try? applyExposure(exposure)
        try camera.start(bufferCount: 4)
        streamCount += 1
    }

    // MARK: frames

    /// The next frame, or nil when none is ready (poll `descriptor` first).
    public func nextFrame() throws(CameraError) -> CapturedFrame? {
        guard let camera, var frame = try camera.dequeue() else { return nil }
        readEmbeddedExposure(of: &frame)
        return frame
    }

    /// The frame's exposure as its embedded data gives it, where the sensor sends some. Data
    /// that cannot be read is said once a mode; the control history's account then stands.
    private func readEmbeddedExposure(of frame: inout CapturedFrame) {
        guard let data = frame.embeddedData, let embeddedReader, let exposureControls else { return }
        switch embeddedReader.read(data) {
        case .success(let registers):
            frame.sensorExposure = exposureControls.setting(reported: registers)
        case .failure(let problem):
            guard !embeddedProblemReported else { return }
            embeddedProblemReported = true
            log("camera: the sensor's embedded data (\(embeddedReader.packing), registers \(embeddedReader.exposure) and "
                + "\(embeddedReader.gain)) gives no exposure: \(problem); the frames' exposure is the controls' history")
        }
    }

    /// Gives a frame's buffer back to the driver to fill again.
    public func giveBack(_ frame: CapturedFrame) throws(CameraError) {
        try camera?.requeue(frame)
    }

    // MARK: what the camera can do

    /// Exposure and gain in Auto exposure's terms.
    public var exposureModel: SensorExposureModel {
        exposureControls?.model ?? SensorExposureModel(limits: ExposureLimits(exposure: 1.0 / 30...1.0 / 30, analogGain: 1...1),
                                                       gainMapping: nil)
    }

    /// What the dials may offer on this camera.
    public var limits: SensorLimits? {
        guard let exposureControls, let device else { return nil }
        var limits = exposureControls.sensorLimits(
            hasFocusControl: lens?.focus != nil,
            hasRawFormat: device.formats.contains { RawFormat(v4l2FourCC: $0.fourCC.code) != nil })
        if calibration.stillSource == .modeSwitch { limits.enhancedRawUnavailable = SensorLimits.stillsSwitchModes }
        return limits
    }

    /// The pixels a photo holds: the still mode's where the board switches to it for stills,
    /// else the stream's (what a RAW shot's size follows before any is saved).
    public var photoPixels: Int {
        if calibration.stillSource == .modeSwitch, let width = calibration.stillWidth, let height = calibration.stillHeight {
            return width * height
        }
        return mode.map { $0.width * $0.height } ?? 0
    }

    /// Where the lens is now (infinity without a focus control): a dial leaving Auto starts there.
    public var focus: FocusPosition {
        guard let control = lens?.focus, let value = try? camera?.control(control.id) else { return .infinity }
        return LensControls.focusPosition(Int64(value), range: control.minimum...control.maximum)
    }

    /// The board's black level in the streamed format's units; one that cannot be is
    /// ignored (and said once a stream).
    public private(set) var blackLevel = 0

    private func fitBlackLevel(_ mode: Mode) {
        blackLevel = calibration.blackLevel ?? 0
        if let format = mode.rawFormat, blackLevel >= format.maximumValue / 2 {
            log("camera: the board's black level \(blackLevel) does not fit \(format); using 0")
            blackLevel = 0
        }
    }

    // MARK: controls

    /// What the sensor is set to now, its own auto exposure switched off so that Reflex
    /// decides. A camera that sends finished pictures keeps its own auto exposure, which
    /// Reflex cannot meter better.
    public func currentExposure() throws(CameraError) -> ExposureSetting {
        guard let camera, let exposureControls, mode?.rawFormat != nil else {
            return ExposureSetting(exposure: 1.0 / 30, analogGain: 1)
        }
        return try exposureControls.current(camera)
    }

    /// Sends an exposure; returns what the sensor was set to (its controls' steps).
    public func applyExposure(_ setting: ExposureSetting) throws(CameraError) -> ExposureSetting {
        guard let camera, let exposureControls else { return setting }
        return try exposureControls.apply(setting, to: camera)
    }

    /// Auto exposure's next setting; a control the driver refuses is reported once and the
    /// stream goes on (nil). Only a lost camera throws.
    public func applyAutoExposure(_ setting: ExposureSetting) throws(CameraError) -> ExposureSetting? {
        do {
            return try applyExposure(setting)
        } catch .disconnected(let path) {
            throw CameraError.disconnected(path)
        } catch {
            if !controlFailureReported { log("camera: cannot set exposure: \(error)") }
            controlFailureReported = true
            return nil
        }
    }

    /// "exposure 1/60 s, gain 200/100× (gain = 32), ISO 200", for the log.
    public func describe(_ setting: ExposureSetting) -> String {
        exposureControls?.describe(setting, iso: exposureModel.iso(of: setting)) ?? "exposure \(setting.exposure) s"
    }

    /// Focus and the camera's own white balance, where it has the controls; a control the
    /// driver refuses is reported, not fatal (a lost camera still throws).
    public func applyLens(_ settings: CameraSettings) throws(CameraError) {
        guard let camera, let lens else { return }
        do {
            if let done = try lens.apply(settings, to: camera) { log("camera: " + done) }
        } catch .disconnected(let path) {
            throw CameraError.disconnected(path)
        } catch {
            log("camera: cannot set focus or white balance: \(error)")
        }
    }

    /// A focus motor Reflex's own autofocus can drive (V4L2's FOCUS_ABSOLUTE).
    public var hasFocusMotor: Bool { lens?.focus != nil }

    /// The camera focuses by itself as well (FOCUS_AUTO).
    public var hasCameraAutofocus: Bool { lens?.focusAuto != nil }

    /// The lens to `position` for Reflex's own autofocus, the camera's own switched off.
    public func moveLens(to position: FocusPosition) throws(CameraError) {
        guard let camera, let lens else { return }
        do {
            try lens.move(to: position, on: camera)
        } catch .disconnected(let path) {
            throw CameraError.disconnected(path)
        } catch {
            log("camera: cannot move the lens: \(error)")
        }
    }

    /// The shutter's half press holds autofocus where it is (where the camera autofocuses),
    /// and lets it go again.
    public func holdFocus(_ hold: Bool, settings: CameraSettings) throws(CameraError) {
        guard let camera, let lens else { return }
        do {
            if try lens.holdAutofocus(hold, settings, on: camera) { log("camera: autofocus " + (hold ? "held" : "free again")) }
        } catch .disconnected(let path) {
            throw CameraError.disconnected(path)
        } catch {
            log("camera: cannot hold the focus: \(error)")
        }
    }

    /// Asks the camera's own zoom for `factor` from the frame after `sequence` (where it has a
    /// zoom control; the ISP crops the rest). A control the driver refuses leaves zoom to the
    /// ISP from then on.
    public func setZoom(_ factor: Double, afterFrame sequence: UInt32) throws(CameraError) {
        guard let camera, let control = zoom else { return }
        let wanted = control.setting(for: factor)
        guard wanted.value != zoomValue else { return }
        do {
            try camera.setControl(control.control.id, to: Int32(clamping: wanted.value))
            zoomValue = wanted.value
            zoomHistory.sent(wanted.factor, after: sequence)
        } catch .disconnected(let path) {
            throw CameraError.disconnected(path)
        } catch {
            log("camera: cannot set the zoom (\(error)); zooming in the ISP only")
            (zoom, zoomValue) = (nil, nil)
            zoomHistory.sent(1, after: sequence)
        }
    }

    /// The magnification the camera itself gave frame `sequence`.
    public func sensorZoom(forFrame sequence: UInt32) -> Double { zoomHistory.setting(forFrame: sequence) }
}
