import CAllocationCounter
import ReflexCore
import ReflexHardware
import ReflexISP
import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// The camera's sensor side, on a thread of its own: the session streams the chosen camera,
/// the exposure controller decides each frame's exposure and colour from its statistics,
/// and every frame goes to the sinks (the preview first). Commands come in through one
/// mailbox; one report goes out to the status board. A lost camera is reported and waited
/// for; streaming resumes by itself when it comes back, and a new choice of camera or mode
/// restarts the stream at once.
public final class SensorPipeline: @unchecked Sendable {
    public typealias Log = @Sendable (String) -> Void

    /// Seconds between two log summaries.
    public static let summaryInterval = 5.0
    /// A stream that delivers nothing for this long has stalled: it is restarted.
    public static let stallTimeout = 3.0

    public let mailbox: ControlMailbox
    public let status: StatusBoard
    public let preview: PreviewSink
    /// The camera streaming (swapped for the standby's at a lens switch that finds it ready).
    private var session: CameraSession
    /// The streaming sensor's calibration (the lens's own, on a board of several).
    private var calibration: SensorCalibration
    /// A board's several cameras as one (nil: one camera, the choice's).
    private let lensChanger: LensChanger?
    /// The zoom the screen last asked for.
    private var zoomWanted = 1.0
    private let log: Log
    private let thread = WorkerThread(name: "reflex-sensor")
    private var sinks: [FrameSink]
    /// The settings as the photographer chose them; the sensor gets them fitted to its limits.
    private var chosen: CameraSettings
    private var report = SensorReport()
    /// The stream's exposure and colour: decided, metered, sent.
    private var exposure: SensorExposure
    private var counters = StreamCounters()
    private let clock: TimeSource
    /// Reflex's own autofocus at a spot tapped in Auto.
    private var autofocus: AutofocusDriver
    /// Set when a new choice of camera or mode came: the stream ends and starts again.
    private var restartRequested = false
    /// The shutter's presses and the zero-lag ring, once photos are taken.
    private var shutter: ShutterQueue?
    /// The kernel's memory pressure, which the ring is fitted to each frame.
    private var memoryPressure: MemoryPressureMonitor?

    /// `lenses`: the board's, where it has several cameras as one (they replace `choice`'s
    /// V4L2 camera; on the simulated sensor, each is the scene at its magnification).
    /// `clock`: the time the thread reckons its deadlines in (a stalled stream, a lens's
    /// handover) and compares presses with frames on; a test that steps a simulated sensor
    /// gives the stepper's.
    public init(settings: CameraSettings, calibration: SensorCalibration, choice: CameraChoice, lenses: [BoardLens] = [],
                mailbox: ControlMailbox = ControlMailbox(), status: StatusBoard = StatusBoard(), clock: TimeSource = .monotonic,
                log: @escaping Log) {
        self.clock = clock
        chosen = settings
        self.calibration = calibration
        if !lenses.isEmpty, let place = LensCameraPlace(choice.source) {
            lensChanger = LensChanger(boardLenses: lenses, place: place, clock: clock, log: log)
        } else {
            lensChanger = nil
        }
        self.mailbox = mailbox
        self.status = status
        self.log = log
        preview = PreviewSink(log: log)
        autofocus = AutofocusDriver(log: log)
        exposure = SensorExposure(log: log)
        sinks = [preview]
        session = CameraSession(choice: choice, calibration: calibration, clock: clock, log: log)
    }

    /// Photos from now on: the ring keeps the last frames, and each press's frame goes to
    /// `photos` (before `start`).
    /// With `stillFrames` (the board's `stills = switch`), each press switches the sensor to
    /// its still mode for a frame of it, in that pool's memory, instead.
    /// Under `memoryPressure` the ring gives memory up (`ShutterQueue.adapt`).
    public func takePhotos(ring: ZeroLagRing, stillFrames: FramePool? = nil, photos: PhotoPipeline,
                           memoryPressure: MemoryPressureMonitor? = nil) {
        shutter = ShutterQueue(ring: ring, stillFrames: stillFrames, photos: photos, log: log)
        self.memoryPressure = memoryPressure
        report.stillsBySwitching = stillFrames != nil
        sinks.append(ring)
    }

    @discardableResult
    public func start() -> Bool {
        let started = thread.start { self.run() }
        if !started { log("camera: cannot start the sensor thread") }
        return started
    }

    public func stop() { thread.stop() }

    // MARK: the thread

    private func run() {
        lensChanger?.start()
        defer { lensChanger?.stop() }
        var reportedAbsence = false
        while !thread.isStopping {
            takeRareMessages()
            restartRequested = false
            if let lensChanger {
                if lensChanger.stale { findLenses() }
                chooseLens()
            }
            do {
                guard try stream() else {
                    // A camera that was streaming is "reconnecting" until it comes back.
                    if report.status != .lost { setStatus(.noCamera) }
                    if !reportedAbsence { log("camera: none found; waiting for one") }
                    lensChanger?.stale = true
                    reportedAbsence = true
                    _ = thread.pause(seconds: 1)
                    continue
                }
            } catch {
                setStatus(.lost)
                log("camera lost: \(error); waiting for it to come back")
                lensChanger?.cameraLost()
            }
            if !keepsSessionShown { session.stop() }
            reportedAbsence = false
            if !restartRequested { _ = thread.pause(seconds: 0.5) }
        }
    }

    /// A new choice of camera and new sinks.
    private func takeRareMessages() {
        let (choice, newSinks) = mailbox.takeRareMessages()
        sinks += newSinks
        for sink in newSinks { log("frames: \(sink.name) attached") }
        if let choice {
            session.choose(choice)
            restartRequested = true
        }
    }

    /// Streams until the camera is lost (throws), a new choice comes or the thread stops;
    /// false when there is no camera.
    private func stream() throws(CameraError) -> Bool {
        // (A session swapped in from standby is streaming already.)
        if !session.isStreaming {
            guard try session.start() else { return false }
        }
        guard let mode = session.mode else { return false }
        defer { if !keepsSessionShown { session.stop() } }
        try prepare(mode)
        var lastFrameTime = clock.now()
        // A switch from standby: the frame it was handed over at is the new lens's first.
        if let first = lensChanger?.takeFirstFrameOfSwitch() {
            try handle(first, mode: mode)
            if restartRequested { return true }
        }
        // Made once: the loop allocates nothing per frame.
        var descriptors = [pollfd(fd: session.descriptor, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: mailbox.wakeDescriptor, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: thread.wakeDescriptor, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: lensChanger?.handOverDescriptor ?? -1, events: Int16(POLLIN), revents: 0)]
        while !thread.isStopping {
            for i in descriptors.indices { descriptors[i].revents = 0 }
            if poll(&descriptors, nfds_t(descriptors.count), lensChanger?.isSteady ?? true ? 1000 : 20) < 0 && errno != EINTR {
                throw CameraError.failed("poll", code: errno)
            }
            if let lensChanger, lensChanger.switchEnds(handOverReadable: descriptors[3].revents & Int16(POLLIN) != 0,
                                                       exposureShown: exposureShown) {
                restartRequested = true
                return true
            }
            if descriptors[1].revents & Int16(POLLIN) != 0 {
                mailbox.drainWake()
                takeRareMessages()
                if restartRequested { return true }
            }
            if descriptors[0].revents & Int16(POLLERR | POLLHUP) != 0 { throw CameraError.disconnected(mode.path) }
            guard descriptors[0].revents & Int16(POLLIN) != 0, let frame = try session.nextFrame() else {
                try checkStall(since: lastFrameTime)
                continue
            }
            lastFrameTime = clock.now()
            try handle(frame, mode: mode)
            // The zoom reached another lens's switch-over: that lens streams next.
            if restartRequested { return true }
            lensChanger?.keepNeighbourReady(zoom: zoomWanted, frames: counters.frames, exposureShown: exposureShown,
                                            calibrationShown: calibration)
            if let shutter, shutter.stillFrames != nil, shutter.waiting > 0, try shutter.serveBySwitching(session, mode: mode, calibration: calibration, settings: report.settings, exposure: exposure.controller,
                                                   lastSequence: counters.lastSequence ?? 0, magnification: magnification) > 0 {
                // The preview streams again from its first frame: a new stream.
                try prepare(mode)
                descriptors[0].fd = session.descriptor
                lastFrameTime = clock.now()
            }
        }
        return true
    }

    /// A stream that delivers nothing has stalled. (A long exposure lengthens the frame: the
    /// frames still under way have that long on top, whichever exposure each was given.)
    private func checkStall(since lastFrameTime: Double) throws(CameraError) {
        let timeout = SensorPipeline.stallTimeout + 2 * (exposure.controller?.longestExposure(after: counters.lastSequence) ?? 0)
        guard clock.now() - lastFrameTime > timeout else { return }
        throw CameraError.failed("no frame for \(Int(timeout)) s", code: ETIMEDOUT)
    }

    // MARK: a new stream

    /// The controller, the report and the settings for a stream that just started.
    private func prepare(_ mode: CameraSession.Mode) throws(CameraError) {
        if let carried = lensChanger?.takeCarriedExposure() {
            // The lens before's exposure, as near as this sensor's controls come to it.
            _ = try? session.applyExposure(carried)
        }
        try exposure.streamStarted(mode, session: session, calibration: calibration)
        preview.streamStarted()
        shutter?.streamStarted()
        counters = StreamCounters()
        counters.startSummary(at: clock.now())
        report.streamStarted(session, mode: mode, fNumber: lensChanger?.active.map { _ in calibration.fNumber } ?? nil)
        if let kept = shutter?.ring.ringFrames, kept < TakenPhoto.mergedFramesAtLeast, report.limits?.enhancedRawUnavailable == nil {
            report.limits?.enhancedRawUnavailable = SensorLimits.tooFewFramesKept(kept, needed: TakenPhoto.mergedFramesAtLeast)
        }
        try applySettings(chosen, afterFrame: nil)
        try session.setZoom(zoomWanted / magnification, afterFrame: 0)
    }

    // MARK: lenses

    /// The streaming lens's magnification against the wide (1 on a board of one camera).
    private var magnification: Double { lensChanger?.magnification ?? 1 }

    /// The session shown is kept streaming across the restart: it goes into standby.
    private var keepsSessionShown: Bool { lensChanger?.keepsSessionShown ?? false }

    /// The exposure of the frame shown last.
    private var exposureShown: ExposureSetting? { counters.lastSequence.flatMap { exposure.taken(forFrame: $0) } }

    /// Looks for the lenses' cameras; the buttons follow those present.
    private func findLenses() {
        guard let present = lensChanger?.findCameras() else { return }
        report.lensesPresent = present
        status.post(report)
    }

    /// The lens the zoom asks for streams next.
    private func chooseLens() {
        guard let lens = lensChanger?.choose(zoom: zoomWanted, session: &session) else {
            report.activeLens = nil
            return
        }
        report.activeLens = lens.role
        calibration = lens.calibration
        shutter?.lensCalibration = calibration
    }

    /// Fits `settings` to this camera (the one place they are fitted) and sends the sensor
    /// what changed.
    private func applySettings(_ settings: CameraSettings, afterFrame sequence: UInt32?) throws(CameraError) {
        let previousSpot = chosen.meteringPoint
        chosen = settings
        let fitted = report.limits.map { CameraModel(settings: settings, limits: $0).settings } ?? settings
        report.settings = fitted
        guard exposure.controller != nil else { return }
        try exposure.apply(fitted, afterFrame: sequence, session: session)
        if fitted.meteringPoint != previousSpot {
            try autofocus.settingsChanged(to: fitted, session: session, width: report.width, height: report.height,
                                          delayFrames: calibration.controlDelayFrames, afterFrame: sequence, now: clock.now())
        }
    }

    // MARK: one frame

    private func handle(_ frame: CapturedFrame, mode: CameraSession.Mode) throws(CameraError) {
        lensChanger?.frameArrived(at: clock.now())
        try takeControls(afterFrame: frame.sequence)
        let whole = !frame.corrupted && (mode.isMotionJPEG ? !frame.bytes.isEmpty : frame.bytes.count >= mode.frameBytes)
        if counters.count(frame, whole: whole) {
            // Once a stream: a camera sending damage sends a lot of it (the summaries count it).
            log("camera: frame \(frame.sequence) is damaged (" + (frame.corrupted ? "flagged by the driver"
                : "\(frame.bytes.count) of its \(mode.frameBytes) bytes") + "); damaged frames are skipped")
        }
        let metered = !frame.corrupted && frame.bytes.count >= mode.frameBytes ? try meter(frame, mode: mode) : false
        report.focus = try autofocus.take(frame, mode: mode, session: session, delayFrames: calibration.controlDelayFrames,
                                          now: clock.now()) ?? report.focus
        // (No sink sees a damaged frame: not the viewfinder, not the zero-lag ring a photo is
        // taken from, not a movie.)
        if whole { deliver(frame, mode: mode) }
        publishReport(metered: metered)
        try session.giveBack(frame)
        summariseIfDue()
    }

    /// New settings (from the next frame on), the zoom and shutter presses.
    private func takeControls(afterFrame sequence: UInt32) throws(CameraError) {
        if let settings = mailbox.takeSettings(), settings != chosen { try applySettings(settings, afterFrame: sequence) }
        if let zoom = mailbox.takeZoom() {
            zoomWanted = zoom
            if let lensChanger, lensChanger.zoomChanged(to: zoom, exposureShown: exposure.taken(forFrame: sequence)) {
                // No stream beside this one: the switch restarts the stream.
                restartRequested = true
                return
            }
            try session.setZoom(zoom / magnification, afterFrame: sequence)
        }
        try exposure.hold(mailbox.exposureLocked, settings: chosen, session: session)
        while let request = mailbox.takeCaptureRequest() {
            report.captureRequestsTaken += 1
            if let shutter { shutter.add(request) } else { log("shutter: press \(request.number) ignored: photos are off") }
        }
        if let shutter {
            try exposure.stepBracket(shutter, afterFrame: sequence, session: session, holdGain: chosen.mode == .pro,
                                     delayFrames: calibration.controlDelayFrames)
        }
    }

    /// Every few frames, not while a bracket changes the exposure frame by frame: statistics,
    /// Auto white balance and Auto exposure (`SensorExposure.meter`). True if metered.
    private func meter(_ frame: CapturedFrame, mode: CameraSession.Mode) throws(CameraError) -> Bool {
        guard shutter?.bracket == nil else { return false }
        return try exposure.meter(frame, layout: mode.rawLayout, frameCount: counters.frames,
                                  spot: chosen.mode == .auto ? chosen.meteringPoint : nil, session: session)
    }

    /// The frame to every sink; none waits.
    private func deliver(_ frame: CapturedFrame, mode: CameraSession.Mode) {
        let exposureTaken = exposure.taken(by: frame)
        let parameters = exposure.controller?.parameters(forFrame: frame.sequence)
        let sensorFrame = SensorFrame(bytes: frame.bytes, mode: mode, sequence: frame.sequence,
                                      timestampNanoseconds: frame.timestampNanoseconds, exposure: exposureTaken,
                                      parameters: parameters,
                                      sensorZoom: session.sensorZoom(forFrame: frame.sequence) * magnification)
        // (One atomic load a frame; the ring changes only when the level does.)
        if let shutter, let memoryPressure { shutter.adapt(to: memoryPressure.level) }
        // A bracket's frame is shown as bright as the frames around it: the viewfinder does
        // not flicker with the bracket (its photos keep their own exposure).
        var previewFrame = sensorFrame
        if let run = shutter?.bracket, var shown = parameters {
            let compensation = run.previewCompensation(forFrame: frame.sequence, exposure: exposureTaken)
            if compensation != 1 {
                shown.digitalGain *= compensation
                previewFrame = SensorFrame(bytes: frame.bytes, mode: mode, sequence: frame.sequence,
                                           timestampNanoseconds: frame.timestampNanoseconds, exposure: exposureTaken,
                                           parameters: shown, sensorZoom: sensorFrame.sensorZoom)
            }
        }
        for sink in sinks { sink.deliver(sink === preview ? previewFrame : sensorFrame) }
        if let shutter, shutter.waiting > 0, shutter.stillFrames == nil {
            let model = session.exposureModel
            // (As fitted to this camera: where it cannot merge, Enhanced RAW is a plain RAW.)
            shutter.serve(sensorFrame, settings: report.settings) { model.iso(of: $0) }
        }
    }

    /// The report goes out when something in it changed: the status, a metering, a loss.
    private func publishReport(metered: Bool) {
        var lost = 0
        for sink in sinks { lost += sink.framesLost }
        guard report.streamed(metered: metered, framesLost: lost, photosTaken: shutter?.taken ?? 0,
                              lastBracket: shutter?.lastBracket,
                              photosCancelled: shutter?.cancelled ?? 0, capturesReported: &counters.capturesReported,
                              controller: exposure.controller, histogram: exposure.statistics.histogram) else { return }
        status.post(report)
    }

    private func setStatus(_ new: SensorReport.Status) {
        guard report.status != new else { return }
        report.status = new
        if new != .streaming { report.hasHistogram = false }
        status.post(report)
    }

    /// Every `summaryInterval`: a line for the log.
    private func summariseIfDue() {
        let now = clock.now()
        guard now - counters.summaryStart >= SensorPipeline.summaryInterval, let controller = exposure.controller else { return }
        log(counters.summary(at: now, exposure: session.describe(controller.requested), controller: controller, zoom: zoomWanted, sinks: sinks))
        // A lens whose camera went (or came) is dropped from (or added to) the buttons. (A
        // probe of the nodes, between two frames every few seconds: it allocates, and is
        // not counted as the frame path's.)
        if lensChanger != nil { findLenses() }
        counters.startSummary(at: clock.now())
    }
}
