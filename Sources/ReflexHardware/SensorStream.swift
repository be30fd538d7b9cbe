import CAllocationCounter
import CV4L2
import ReflexCore
import ReflexISP
import ReflexSystem
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The camera's sensor side, on a thread of its own: finds the camera, streams the best
/// format, meters frames, runs Auto exposure and white balance (or applies the Pro values),
/// and drives the sensor's controls. A lost camera is reported and waited for; streaming
/// resumes by itself when it comes back.
public final class SensorStream: @unchecked Sendable {
    public typealias Log = @Sendable (String) -> Void

    /// Frames between two meterings: AE and AWB need fresh statistics, not every frame's.
    public static let meteringInterval = 4
    /// Seconds between two log summaries.
    public static let summaryInterval = 5.0
    /// A stream that delivers nothing for this long has stalled: it is restarted.
    public static let stallTimeout = 3.0

    /// Where frames come from: the machine's V4L2 cameras, or the simulated sensor.
    public enum Source: Sendable, Equatable {
        case v4l2(devFolder: String)
        /// The simulated sensor, with one of the two kinds of exposure control.
        case simulated(SimulatedCamera.Style)
    }

    /// The settings in force; new ones arrive through `settingsInbox` (the sensor thread's own).
    private var settings: CameraSettings
    private let settingsInbox: TripleBuffer<CameraSettings>?
    private let calibration: SensorCalibration
    private let source: Source
    /// Where frames and reports go for the screen, if there is one.
    private let exchange: PreviewFrameExchange?
    private let log: Log
    private let stopRequested = Atomic<Bool>(false)
    private var thread: pthread_t?
    private var report = SensorReport()

    public init(settings: CameraSettings, calibration: SensorCalibration, source: Source = .v4l2(devFolder: "/dev"),
                exchange: PreviewFrameExchange? = nil, settingsInbox: TripleBuffer<CameraSettings>? = nil,
                log: @escaping Log) {
        self.settings = settings
        self.settingsInbox = settingsInbox
        self.calibration = calibration
        self.source = source
        self.exchange = exchange
        self.log = log
    }

    private func setStatus(_ status: SensorReport.Status) {
        guard report.status != status else { return }
        report.status = status
        if status != .streaming { report.hasHistogram = false }
        exchange?.publishReport(report)
    }

    public func start() {
        thread = startThread { self.run() }
        if thread == nil { log("camera: cannot start the sensor thread") }
    }

    public func stop() {
        stopRequested.store(true, ordering: .relaxed)
        if let thread { pthread_join(thread, nil) }
        thread = nil
    }

    private var stopping: Bool { stopRequested.load(ordering: .relaxed) }

    private func run() {
        var reportedAbsence = false
        while !stopping {
            guard let device = findCamera() else {
                // A camera that was streaming is "reconnecting" until it comes back.
                if report.status != .lost { setStatus(.noCamera) }
                if !reportedAbsence { log("camera: none found; waiting for one") }
                reportedAbsence = true
                pause(seconds: 1)
                continue
            }
            reportedAbsence = false
            do {
                try stream(device)
            } catch {
                setStatus(.lost)
                log("camera lost: \(error); waiting for it to come back")
            }
            pause(seconds: 0.5)
        }
    }

    private func findCamera() -> CaptureDeviceInfo? {
        switch source {
        case .simulated(let style): SimulatedCamera.info(style)
        case .v4l2(let devFolder):
            CaptureDeviceProbe.scan(devFolder: devFolder).devices.first {
                CaptureFormatChoice.best(of: $0.formats.map(\.fourCC.code)) != nil
            }
        }
    }

    private func open(_ device: CaptureDeviceInfo) throws(CameraError) -> CameraDevice {
        switch source {
        case .simulated(let style): SimulatedCamera(style: style)
        case .v4l2: try V4L2Camera(path: device.path)
        }
    }

    private func pause(seconds: Double) {
        var remaining = seconds
        while remaining > 0 && !stopping {
            usleep(100_000)
            remaining -= 0.1
        }
    }

    private func stream(_ device: CaptureDeviceInfo) throws(CameraError) {
        let camera = try open(device)
        let fourCC = CaptureFormatChoice.best(of: device.formats.map(\.fourCC.code))!
        let format = try camera.setFormat(fourCC: fourCC, width: calibration.previewWidth,
                                          height: calibration.previewHeight)
        let width = Int(format.width), height = Int(format.height), bytesPerLine = Int(format.bytesperline)
        let rawFormat = RawFormat(v4l2FourCC: format.pixelformat)
        // Motion-JPEG is decoded here, off the realtime loop, at half size.
        let isJPEG = format.pixelformat == CaptureFormatChoice.motionJPEG || format.pixelformat == CaptureFormatChoice.jpeg
        let decoder = isJPEG ? JPEGPreviewDecoder() : nil
        let (halfWidth, halfHeight) = JPEGPreviewDecoder.halfSize(width: width, height: height)
        let decoded = isJPEG ? UnsafeMutableRawBufferPointer.allocate(byteCount: halfWidth * halfHeight * 4, alignment: 64) : nil
        defer { decoded?.deallocate() }
        var decodeFailureReported = false
        let rate = try calibration.previewFramesPerSecond.flatMap { fps throws(CameraError) in try camera.setFrameRate(fps) }
        try camera.start(bufferCount: 4)
        defer { camera.stop() }
        log("camera: streaming \(device.path) (\(device.card), driver \(device.driver)) \(FourCC(format.pixelformat)) "
            + "\(width)x\(height), \(bytesPerLine) bytes a line"
            + (rate.map { " at \(Int($0.rounded())) fps" } ?? "")
            + (rawFormat.map { ", raw \($0)" } ?? ", not raw: no metering"))

        // The controls' ranges for this mode (a CSI sensor's exposure follows its frame length).
        let device = device.describingControlsNow(camera)
        let exposureControl = ExposureControls(
            device: device, calibration: calibration,
            measuredLineTime: ExposureControls.measureLineTime(camera, device: device, width: width),
            frameLength: ExposureControls.measureFrameLength(camera, device: device, height: height))
        log("camera: " + exposureControl.summary)
        // A raw sensor is exposed by Reflex; a camera that sends finished pictures (YUYV, a
        // UVC webcam) keeps its own auto exposure, which Reflex cannot meter better.
        var setting = rawFormat != nil ? try exposureControl.current(camera) : ExposureSetting(exposure: 1.0 / 30, analogGain: 1)
        var (manual, limits) = try pinOrKeep(settings, controls: exposureControl, setting: &setting, camera: camera)
        let lens = LensControls(device: device, picturesAreRaw: rawFormat != nil)
        try applyLens(lens, camera: camera)
        // The camera's own zoom where it has one; frames say how much of the zoom is theirs.
        var sensorZoom = SensorZoom(device: device, calibration: calibration)
        var zoomValue: Int64?
        // Which zoom each frame had: a zoom lens, like exposure, answers a few frames late.
        var zoomHistory = ControlHistory<Double>(initial: 1, delayFrames: calibration.controlDelayFrames)
        if let sensorZoom { log("camera: " + sensorZoom.summary) }
        // A dial leaving Auto starts from where the lens is.
        if let focusControl = lens.focus, let value = try? camera.control(focusControl.id) {
            report.focus = LensControls.focusPosition(Int64(value), range: focusControl.minimum...focusControl.maximum)
        }
        report.limits = exposureControl.sensorLimits(
            hasFocusControl: lens.focus != nil,
            hasRawFormat: device.formats.contains { RawFormat(v4l2FourCC: $0.fourCC.code) != nil })
        var autoExposure = AutoExposure(limits: limits)
        autoExposure.compensation = settings.exposureCompensation
        var autoWhiteBalance = AutoWhiteBalance()
        let color = calibration.color
        let previewMatrix = color.previewMatrix  // once: it is matrix arithmetic on arrays
        var manualWhiteBalance = fixedWhiteBalance(settings, color: color)
        var whiteBalance: SIMD3<Double> { manualWhiteBalance?.1 ?? autoWhiteBalance.gains }
        var history = ExposureHistory(initial: setting, delayFrames: calibration.controlDelayFrames)
        let isp = PreviewISP(maximumSourceWidth: width, maximumSourceHeight: height, maximumOutputWidth: 16)
        report.width = width
        report.height = height
        report.sensorPixels = device.formats.flatMap(\.sizes).map { $0.width * $0.height }.max() ?? width * height
        var statistics = FrameStatistics()
        // The board's black level is in the streamed format's units; one that cannot be is ignored.
        var blackLevel = calibration.blackLevel ?? 0
        if let rawFormat, blackLevel >= rawFormat.maximumValue / 2 {
            log("camera: the board's black level \(blackLevel) does not fit \(rawFormat); using 0")
            blackLevel = 0
        }
        var controlFailureReported = false
        var lastFrameTime = monotonicSeconds()
        var lastFrameSequence: UInt32?

        var frames = 0, dropped = 0, lastSequence: UInt32?, lastBytes = 0
        var summaryStart = monotonicSeconds()
        // This thread's heap allocations since the last summary: the frame path makes none.
        var allocationsAtSummary = reflex_thread_allocations()
        var lastLuma = 0.0
        // Made once: the loop allocates nothing per frame.
        var descriptor = pollfd(fd: camera.descriptor, events: Int16(POLLIN), revents: 0)
        while !stopping {
            descriptor.revents = 0
            let ready = poll(&descriptor, 1, 1000)
            if ready < 0 && errno != EINTR { throw CameraError.failed("poll", code: errno) }
            if descriptor.revents & Int16(POLLERR | POLLHUP) != 0 { throw CameraError.disconnected(device.path) }
            guard descriptor.revents & Int16(POLLIN) != 0, let frame = try camera.dequeue() else {
                // (A long exposure lengthens the frame: the frames still under way have that
                // long on top, whichever exposure each was given.)
                let timeout = SensorStream.stallTimeout + 2 * history.longestExposure(after: lastFrameSequence)
                if monotonicSeconds() - lastFrameTime > timeout {
                    throw CameraError.failed("no frame for \(Int(timeout)) s", code: ETIMEDOUT)
                }
                continue
            }
            lastFrameTime = monotonicSeconds()
            lastFrameSequence = frame.sequence
            // New settings from the screen (a dial, the toggle) apply from the next frame on.
            if let settingsInbox, settingsInbox.takeNewest(), settingsInbox.current != settings {
                let previous = settings
                settings = settingsInbox.current
                // Only what changed is redone: picking a dial or a format leaves AE's state alone.
                if ManualExposure(settings: settings) != ManualExposure(settings: previous)
                    || settings.exposureCompensation != previous.exposureCompensation {
                    (manual, limits) = try pinOrKeep(settings, controls: exposureControl, setting: &setting, camera: camera)
                    autoExposure = AutoExposure(limits: limits)
                    autoExposure.compensation = settings.exposureCompensation
                    autoExposure.applied(setting)
                    history.sent(setting, after: frame.sequence)
                }
                if settings.mode != previous.mode || settings.whiteBalance != previous.whiteBalance {
                    manualWhiteBalance = fixedWhiteBalance(settings, color: color)
                }
                if settings.mode != previous.mode || settings.whiteBalance != previous.whiteBalance
                    || settings.focus != previous.focus {
                    try applyLens(lens, camera: camera)
                }
            }
            let zoomOfThisFrame = zoomHistory.setting(forFrame: frame.sequence)
            if let zoom = sensorZoom, let exchange {
                let wanted = zoom.setting(for: exchange.requestedZoom)
                if wanted.value != zoomValue {
                    do {
                        try camera.setControl(zoom.control.id, to: Int32(clamping: wanted.value))
                        zoomValue = wanted.value
                        zoomHistory.sent(wanted.factor, after: frame.sequence)
                    } catch .disconnected(let path) {
                        throw CameraError.disconnected(path)
                    } catch {
                        log("camera: cannot set the zoom (\(error)); zooming in the ISP only")
                        (sensorZoom, zoomValue) = (nil, nil)
                        zoomHistory.sent(1, after: frame.sequence)
                    }
                }
            }
            if let lastSequence, frame.sequence > lastSequence &+ 1 { dropped += Int(frame.sequence - lastSequence - 1) }
            lastSequence = frame.sequence
            lastBytes = frame.bytes.count
            frames += 1
            let metered = rawFormat != nil && !frame.corrupted && frames % SensorStream.meteringInterval == 0
                && frame.bytes.count >= bytesPerLine * height
            if let rawFormat, metered {
                // Metered as taken: the frame's own exposure, not the newest asked for.
                let taken = history.setting(forFrame: frame.sequence)
                let layout = RawLayout(width: width, height: height, bytesPerLine: bytesPerLine, format: rawFormat)
                isp.setParameters(ISPParameters(blackLevel: blackLevel, whiteLevel: rawFormat.maximumValue,
                                                whiteBalance: whiteBalance, digitalGain: taken.digitalGain,
                                                colorMatrix: previewMatrix),
                                  format: rawFormat)
                isp.collectStatistics(frame.bytes.baseAddress!, layout: layout, into: &statistics)
                if manualWhiteBalance == nil {
                    _ = autoWhiteBalance.update(meanRGB: statistics.meanRGB, clippedFraction: statistics.clippedFraction)
                }
                lastLuma = meteredLuma(statistics.meanRGB, whiteBalance: whiteBalance) * taken.digitalGain
                if !manual.isFullyManual {
                    let next = autoExposure.update(meanLuma: lastLuma, clippedFraction: statistics.clippedFraction,
                                                   frame: taken)
                    if next != setting {
                        // A control the driver refuses is reported once; the stream goes on.
                        do {
                            setting = try exposureControl.apply(next, to: camera)
                            autoExposure.applied(setting)
                            history.sent(setting, after: frame.sequence)
                        } catch .disconnected(let path) {
                            throw CameraError.disconnected(path)
                        } catch {
                            if !controlFailureReported { log("camera: cannot set exposure: \(error)") }
                            controlFailureReported = true
                        }
                    }
                }
            }
            if let exchange, let decoder, let decoded, !frame.corrupted {
                // A damaged JPEG (UVC cameras send some) is skipped, and said once.
                switch decoder.decodeHalfSize(UnsafeRawBufferPointer(frame.bytes), width: width, height: height,
                                              into: decoded.baseAddress!) {
                case .success:
                    exchange.publishFrame(UnsafeRawBufferPointer(decoded), width: halfWidth, height: halfHeight,
                                          bytesPerLine: halfWidth * 4, kind: .halfSizeXRGB, parameters: nil,
                                          sequence: frame.sequence, sensorZoom: zoomOfThisFrame)
                case .failure(let error):
                    if !decodeFailureReported { log("camera: a Motion-JPEG frame could not be decoded (\(error))") }
                    decodeFailureReported = true
                }
                if report.status != .streaming {
                    report.status = .streaming
                    exchange.publishReport(report)
                }
            } else if let exchange, !frame.corrupted, frame.bytes.count >= bytesPerLine * height {
                exchange.publishFrame(UnsafeRawBufferPointer(frame.bytes), width: width, height: height,
                                      bytesPerLine: bytesPerLine, kind: rawFormat.map { .bayer($0) } ?? .yuyv,
                                      parameters: rawFormat.map {
                                          ISPParameters(blackLevel: blackLevel, whiteLevel: $0.maximumValue,
                                                        whiteBalance: whiteBalance, digitalGain: setting.digitalGain,
                                                        colorMatrix: previewMatrix)
                                      },
                                      sequence: frame.sequence, sensorZoom: zoomOfThisFrame)
                if report.status != .streaming || metered {
                    report.status = .streaming
                    report.exposureSeconds = setting.exposure
                    report.iso = exposureControl.iso(of: setting)
                    report.kelvin = manualWhiteBalance?.0 ?? color.kelvin(forGains: autoWhiteBalance.gains)
                    if metered {
                        for bin in 0..<min(FrameStatistics.histogramBins, 64) { report.histogram[bin] = statistics.histogram[bin] }
                        report.hasHistogram = true
                    }
                    exchange.publishReport(report)
                }
            }
            try camera.requeue(frame)
            let now = monotonicSeconds()
            if now - summaryStart >= SensorStream.summaryInterval {
                let allocations = reflex_thread_allocations() - allocationsAtSummary
                let rate = Double(frames) / (now - summaryStart)
                log("camera: \(frames) frames in \(Int((now - summaryStart).rounded())) s "
                    + "(\(Int(rate.rounded())) fps), \(dropped) dropped, \(lastBytes) bytes a frame, "
                    + "\(exposureControl.describe(setting)), luma \(Int((lastLuma * 1000).rounded()))/1000, "
                    + (manualWhiteBalance != nil ? "WB \(settings.whiteBalance)"
                        : "AWB about \(color.kelvin(forGains: autoWhiteBalance.gains)) K")
                    + ", \(allocations / Int64(max(frames, 1))) allocations a frame")
                frames = 0
                dropped = 0
                summaryStart = now
                allocationsAtSummary = reflex_thread_allocations()
            }
        }
    }
}

extension SensorStream {
    /// `pinManualValues`, where a control the driver refuses (a webcam whose own auto
    /// exposure holds its exposure control, say) is reported and Auto's full limits kept: only
    /// a lost camera ends the stream, or the same saved settings would end every restart.
    private func pinOrKeep(_ settings: CameraSettings, controls: ExposureControls, setting: inout ExposureSetting,
                           camera: CameraDevice) throws(CameraError) -> (ManualExposure, ExposureLimits) {
        var attempt = setting
        do {
            let pinned = try pinManualValues(settings, controls: controls, setting: &attempt, camera: camera)
            setting = attempt
            return pinned
        } catch .disconnected(let path) {
            throw CameraError.disconnected(path)
        } catch {
            log("camera: cannot set the manual exposure (\(error)); Auto exposure keeps it")
            return (ManualExposure(settings: CameraSettings()), controls.limits)
        }
    }

    /// Pro values pin what they set; Auto exposure works what is left (shutter priority with
    /// a manual shutter, ISO priority with a manual ISO, nothing with both). A pinned value
    /// goes to the sensor at once.
    private func pinManualValues(_ settings: CameraSettings, controls: ExposureControls, setting: inout ExposureSetting,
                                 camera: CameraDevice) throws(CameraError) -> (ManualExposure, ExposureLimits) {
        let manual = ManualExposure(settings: settings)
        var limits = controls.limits
        if let shutter = manual.shutter {
            setting.exposure = min(max(shutter.seconds, limits.exposure.lowerBound), limits.exposure.upperBound)
            limits.exposure = setting.exposure...setting.exposure
            limits.previewExposureLimit = setting.exposure
        }
        if let iso = manual.iso {
            let pinned = controls.setting(forISO: iso, exposure: setting.exposure)
            setting.analogGain = pinned.analogGain
            setting.digitalGain = pinned.digitalGain
            limits.analogGain = pinned.analogGain...pinned.analogGain
            limits.maximumDigitalGain = pinned.digitalGain
        }
        // A long exposure left from a shutter set by hand (or from before this stream) goes
        // back to the preview's frame time at once, as bright as gain can make it (with the
        // ISO pinned, darker): Auto alone would keep it while the scene looks right, and the
        // preview would crawl.
        var shortened = false
        if manual.shutter == nil, setting.exposure > limits.previewExposureLimit * 1.001,
           setting.exposure > limits.exposure.lowerBound {
            setting = AutoExposure(limits: limits).allocate(product: setting.product)
            shortened = true
        }
        if manual.shutter != nil || manual.iso != nil || shortened {
            setting = try controls.apply(setting, to: camera)
            let pinned = [manual.shutter.map { "shutter \($0)" }, manual.iso.map { "ISO \($0)" }].compactMap { $0 }
            log("camera: " + (pinned.isEmpty ? "auto shutter" : "manual " + pinned.joined(separator: ", "))
                + (shortened ? ", the exposure back within the preview's frame" : "") + " → \(controls.describe(setting))")
        }
        return (manual, limits)
    }

    /// Focus and the camera's own white balance, where it has the controls; a control the
    /// driver refuses is reported, not fatal (a lost camera still ends the stream).
    private func applyLens(_ lens: LensControls, camera: CameraDevice) throws(CameraError) {
        do {
            if let done = try lens.apply(settings, to: camera) { log("camera: " + done) }
        } catch .disconnected(let path) {
            throw CameraError.disconnected(path)
        } catch {
            log("camera: cannot set focus or white balance: \(error)")
        }
    }

    /// Pro white balance (a preset or Kelvin) fixes the gains through the sensor's colour
    /// calibration; nil leaves them to Auto white balance.
    private func fixedWhiteBalance(_ settings: CameraSettings, color: ColorCalibration) -> (Int, SIMD3<Double>)? {
        guard settings.mode == .pro, let kelvin = settings.whiteBalance.kelvin else { return nil }
        let gains = color.gains(kelvin: kelvin)
        log("camera: manual white balance \(settings.whiteBalance) → gains \(Self.gainsText(gains)) (\(kelvin) K)")
        return (kelvin, gains)
    }

    static func gainsText(_ gains: SIMD3<Double>) -> String {
        [gains.x, gains.y, gains.z].map { String(Int(($0 * 100).rounded())) + "%" }.joined(separator: "/")
    }
}

/// The exposure values Pro mode fixes: none in Auto.
struct ManualExposure: Equatable {
    let shutter: ShutterSpeed?
    let iso: Int?

    init(settings: CameraSettings) {
        shutter = settings.mode == .pro ? settings.shutter.manualValue : nil
        iso = settings.mode == .pro ? settings.iso.manualValue?.value : nil
    }

    var isFullyManual: Bool { shutter != nil && iso != nil }
}
