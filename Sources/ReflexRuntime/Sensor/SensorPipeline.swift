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
    /// The lens the zoom is near switching to, streaming beside it where the board allows
    /// (a board of several lenses).
    private let standby: StandbyCamera?
    /// The camera last wished in standby.
    private var standbyWished: String?
    /// The lens switch under way finds its lens streaming in standby: the session shown is
    /// not stopped, it becomes the standby (the zoom may go back).
    private var switchingToStandby = false
    /// The streaming sensor's calibration (the lens's own, on a board of several).
    private var calibration: SensorCalibration
    /// The board's lenses (none: one camera, the choice's).
    private let boardLenses: [BoardLens]
    /// Those present the last time they were looked for, and where their cameras are.
    private var lenses = LensSet([])
    private var lensPaths: [String] = []
    private var lensCalibrations: [SensorCalibration] = []
    /// The lens streaming (an index in `lenses`), and the zoom the screen last asked for.
    private var activeLens: Int?
    private var zoomWanted = 1.0
    /// The lenses' cameras must be looked for again (at start, after a loss, every summary).
    private var lensesStale = true
    /// The exposure the lens before had: the next one starts from it (no flash of a new
    /// Auto exposure across a switch).
    private var carriedExposure: ExposureSetting?
    /// When the last lens's last frame was in: the new lens's first frame says the gap.
    private var lensSwitchStartedAt: Double?
    /// A switch to a lens whose camera streams (or starts) in standby, the lens shown still
    /// streaming meanwhile; the frame the standby handed over with its camera, to show first.
    private var lensSwitch = LensSwitch()
    private var firstFrameOfSwitch: CapturedFrame?
    /// When the standby handed its camera over (the swap's own cost is measured from it).
    private var handedOverAt: Double?
    /// When the frame shown last was in (a switch measures its gap from it).
    private var lastFrameHandledAt: Double?
    /// Where V4L2 cameras are looked for (the lenses' cameras too).
    private let devFolder: String?
    private let log: Log
    private let thread = WorkerThread(name: "reflex-sensor")
    private var sinks: [FrameSink]
    /// The settings as the photographer chose them; the sensor gets them fitted to its limits.
    private var chosen: CameraSettings
    private var report = SensorReport()
    private var exposure: ExposureController?
    private var isp: PreviewISP?
    private var statistics = FrameStatistics()
    private var counters = StreamCounters()
    private let clock: TimeSource
    /// Reflex's own autofocus at a spot tapped in Auto, while it sweeps.
    private var tapFocus: TapFocus?
    /// Set when a new choice of camera or mode came: the stream ends and starts again.
    private var restartRequested = false
    /// The shutter's presses and the zero-lag ring, once photos are taken.
    private var shutter: ShutterQueue?
    /// The kernel's memory pressure, which the ring is fitted to each frame.
    private var memoryPressure: MemoryPressureMonitor?

    /// `lenses`: the board's, where it has several cameras as one (they replace `choice`'s
    /// V4L2 camera; the simulated sensor ignores them).
    /// `clock`: the time the thread reckons its deadlines in (a stalled stream, a lens's
    /// handover) and compares presses with frames on; a test that steps a simulated sensor
    /// gives the stepper's.
    public init(settings: CameraSettings, calibration: SensorCalibration, choice: CameraChoice, lenses: [BoardLens] = [],
                mailbox: ControlMailbox = ControlMailbox(), status: StatusBoard = StatusBoard(), clock: TimeSource = .monotonic,
                log: @escaping Log) {
        self.clock = clock
        chosen = settings
        self.calibration = calibration
        if case .v4l2(let folder, _) = choice.source {
            (devFolder, boardLenses) = (folder, lenses)
        } else {
            (devFolder, boardLenses) = (nil, [])
        }
        self.mailbox = mailbox
        self.status = status
        self.log = log
        preview = PreviewSink(log: log)
        sinks = [preview]
        session = CameraSession(choice: choice, calibration: calibration, clock: clock, log: log)
        standby = boardLenses.isEmpty ? nil : devFolder.map { StandbyCamera(devFolder: $0, log: log) }
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
        standby?.start()
        defer { standby?.stop() }
        var reportedAbsence = false
        while !thread.isStopping {
            takeRareMessages()
            restartRequested = false
            if !boardLenses.isEmpty {
                if lensesStale { findLenses() }
                chooseLens()
            }
            do {
                guard try stream() else {
                    // A camera that was streaming is "reconnecting" until it comes back.
                    if report.status != .lost { setStatus(.noCamera) }
                    if !reportedAbsence { log("camera: none found; waiting for one") }
                    lensesStale = true
                    reportedAbsence = true
                    _ = thread.pause(seconds: 1)
                    continue
                }
            } catch {
                setStatus(.lost)
                log("camera lost: \(error); waiting for it to come back")
                lensesStale = true
                switchingToStandby = false
                if lensSwitch.callOff() { standby?.cancelHandOver() }
                firstFrameOfSwitch = nil
            }
            if !switchingToStandby { session.stop() }
            reportedAbsence = false
            if !restartRequested { _ = thread.pause(seconds: 0.5) }
        }
    }

    /// A new choice of camera and new sinks.
    private func takeRareMessages() {
        let (choice, newSinks) = mailbox.takeRareMessages()
        for sink in newSinks {
            sinks.append(sink)
            log("frames: \(sink.name) attached")
        }
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
        defer { if !switchingToStandby { session.stop() } }
        try prepare(mode)
        var lastFrameTime = clock.now()
        // A switch from standby: the frame it was handed over at is the new lens's first.
        if let first = firstFrameOfSwitch {
            firstFrameOfSwitch = nil
            try handle(first, mode: mode)
            if restartRequested { return true }
        }
        // Made once: the loop allocates nothing per frame.
        var descriptors = [pollfd(fd: session.descriptor, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: mailbox.wakeDescriptor, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: thread.wakeDescriptor, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: standby?.handOverDescriptor ?? -1, events: Int16(POLLIN), revents: 0)]
        while !thread.isStopping {
            for i in descriptors.indices { descriptors[i].revents = 0 }
            if poll(&descriptors, nfds_t(descriptors.count), lensSwitch.isSteady ? 1000 : 20) < 0 && errno != EINTR {
                throw CameraError.failed("poll", code: errno)
            }
            // The lens switched to, still starting in standby, may stream now; once it does,
            // its next frame is shown next, from the standby's stream.
            var outcome = askStandby()
            if descriptors[3].revents & Int16(POLLIN) != 0 {
                if lensSwitch.isWaitingForFrame { outcome = lensSwitch.frameHandedOver() } else { standby?.drainHandOver() }
            }
            if let ended = outcome ?? lensSwitch.timePassed(clock.now()) {
                endSwitch(ended)
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
            if lensSwitch.isSteady { keepNeighbourReady() }
            if let shutter, shutter.stillFrames != nil, shutter.waiting > 0, try takeStills(mode, shutter: shutter) > 0 {
                // The preview streams again from its first frame: a new stream.
                try prepare(mode)
                descriptors[0].fd = session.descriptor
                lastFrameTime = clock.now()
            }
        }
        return true
    }

    /// Asks the standby for the lens switched to at its next frame while its camera starts
    /// (asked again each wake-up); a restart when the standby does not have it at all.
    private func askStandby() -> LensSwitch.Outcome? {
        guard let lens = lensSwitch.target, lensSwitch.isWaitingForStart else { return nil }
        let path = lensPaths[lens]
        let answer: LensSwitch.StandbyAnswer = if standby?.handOver(path: path) == true {
            .streaming
        } else if standby?.involves(path) == true {
            .starting
        } else {
            .absent
        }
        return lensSwitch.standbyAnswered(answer, at: clock.now())
    }

    /// Ends a switch that waited for the standby: handed over, or not (not there, not started
    /// in time, or it stopped delivering), in which case the switch restarts the stream (its
    /// camera taken from standby if it is there after all, else opened).
    private func endSwitch(_ outcome: LensSwitch.Outcome) {
        var handedOver = false
        switch outcome {
        case .handedOver:
            handedOver = true
        case .restart(_, .notInStandby):
            break
        case .restart(let lens, let reason):
            standby?.cancelHandOver()
            let role = lenses.lenses.indices.contains(lens) ? lenses.lenses[lens].role.rawValue : "lens"
            log("lenses: the \(role)'s camera in standby " + (reason == .gaveNoFrame
                ? "gave no frame in \(Int(LensSwitch.framePatience * 1000)) ms"
                : "did not start in \(Formatting.fixed(LensSwitch.startPatience, 1)) s") + ": switching by a restart")
        }
        handedOverAt = handedOver ? clock.now() : nil
        // The exposure shown last, for the new lens to start from.
        carriedExposure = counters.lastSequence.flatMap { exposure?.taken(forFrame: $0) }
        switchingToStandby = true
        lensSwitchStartedAt = lastFrameHandledAt ?? clock.now()
        restartRequested = true
    }

    /// The board's still mode: the sensor switches to it for each waiting press and back,
    /// the exposure, white balance and zoom of the last preview frame kept. The number taken.
    private func takeStills(_ mode: CameraSession.Mode, shutter: ShutterQueue) throws(CameraError) -> Int {
        guard let width = calibration.stillWidth, let height = calibration.stillHeight else { return 0 }
        let sequence = counters.lastSequence ?? 0
        let exposureNow = exposure?.taken(forFrame: sequence) ?? ExposureSetting(exposure: 1.0 / 30, analogGain: 1)
        let parameters = exposure?.parameters(forFrame: sequence)
        let zoom = session.sensorZoom(forFrame: sequence) * magnification
        let model = session.exposureModel
        return try shutter.serveBySwitching(settings: chosen, iso: { model.iso(of: $0) },
                                            framePeriod: shutter.frameSeconds(mode)) { copy throws(CameraError) in
            try session.captureStill(width: width, height: height, exposure: exposureNow, parameters: parameters,
                                         sensorZoom: zoom, skipping: calibration.stillSkipFrames, into: copy)
        }
    }

    /// A stream that delivers nothing has stalled. (A long exposure lengthens the frame: the
    /// frames still under way have that long on top, whichever exposure each was given.)
    private func checkStall(since lastFrameTime: Double) throws(CameraError) {
        let timeout = SensorPipeline.stallTimeout + 2 * (exposure?.longestExposure(after: counters.lastSequence) ?? 0)
        if clock.now() - lastFrameTime > timeout {
            throw CameraError.failed("no frame for \(Int(timeout)) s", code: ETIMEDOUT)
        }
    }

    // MARK: a new stream

    /// The controller, the report and the settings for a stream that just started.
    private func prepare(_ mode: CameraSession.Mode) throws(CameraError) {
        if let carried = carriedExposure {
            // The lens before's exposure, as near as this sensor's controls come to it.
            _ = try? session.applyExposure(carried)
            carriedExposure = nil
        }
        let current = try session.currentExposure()
        exposure = ExposureController(sensor: session.exposureModel, color: calibration.color,
                                      levels: mode.rawFormat.map { (session.blackLevel, $0.maximumValue) },
                                      current: current, delayFrames: calibration.controlDelayFrames)
        // (Kept when the new stream fits it: its tables take a while to make, and a lens
        // switch should show the new lens's first frame at once.)
        if mode.rawFormat == nil {
            isp = nil
        } else if isp == nil || isp!.maximumSourceWidth < mode.width || isp!.maximumSourceHeight < mode.height {
            isp = PreviewISP(maximumSourceWidth: mode.width, maximumSourceHeight: mode.height, maximumOutputWidth: 16)
        }
        preview.streamStarted()
        shutter?.streamStarted()
        counters = StreamCounters()
        counters.startSummary(at: clock.now())
        report.limits = session.limits
        report.focus = session.focus
        report.width = mode.width
        report.height = mode.height
        report.photoPixels = session.photoPixels
        report.streamCount = session.streamCount
        report.fNumber = activeLens.map { _ in calibration.fNumber } ?? nil
        try applySettings(chosen, afterFrame: nil)
        try session.setZoom(zoomWanted / magnification, afterFrame: 0)
    }

    // MARK: lenses

    /// The streaming lens's magnification against the wide (1 on a board of one camera): a
    /// frame's `sensorZoom` counts it, so the ISP crops the rest of the zoom.
    private var magnification: Double {
        activeLens.map { lenses.lenses[$0].magnification } ?? 1
    }

    /// Looks for the board's lenses' cameras: those found are offered, the others not.
    private func findLenses() {
        guard let devFolder else { return }
        lensesStale = false
        let candidates = CameraMatcher.candidates(devFolder: devFolder)
        var present: [(BoardLens, String)] = []
        var missing: [String] = []
        for lens in boardLenses {
            if let path = CameraMatcher.match(lens.description.camera, in: candidates) {
                present.append((lens, path))
            } else {
                missing.append("\(lens.description.role.rawValue) (its camera \"\(lens.description.camera)\" not found)")
            }
        }
        present.sort { $0.0.description.magnification < $1.0.description.magnification }
        let set = LensSet(present.map(\.0.description))
        let paths = present.map(\.1)
        guard set != lenses || paths != lensPaths else { return }
        log("lenses: " + (present.isEmpty ? "none present" : present.map { lens, path in
            "\(lens.description.role.rawValue) \(lens.description.label) on \(path)"
        }.joined(separator: ", ")) + (missing.isEmpty ? "" : "; missing: " + missing.joined(separator: ", ")))
        // The lens streaming keeps its place under its new index.
        let streaming = activeLens.map { lensPaths[$0] }
        (lenses, lensPaths, lensCalibrations) = (set, paths, present.map(\.0.calibration))
        activeLens = streaming.flatMap { paths.firstIndex(of: $0) }
        report.lensesPresent = present.reduce(UInt8(0)) { mask, lens in
            mask | UInt8(1 << (LensDescription.Role.allCases.firstIndex(of: lens.0.description.role) ?? 0))
        }
        status.post(report)
    }

    /// The lens the zoom asks for, to stream next.
    private func chooseLens() {
        guard let devFolder else { return }
        guard !lenses.lenses.isEmpty else {
            activeLens = nil
            report.activeLens = nil
            return
        }
        let next = lenses.lens(forZoom: zoomWanted)
        let leaving = activeLens.flatMap { lenses.lenses.indices.contains($0) && $0 != next ? $0 : nil }
        activeLens = next
        report.activeLens = lenses.lenses[next].role
        calibration = lensCalibrations[next]
        shutter?.lensCalibration = calibration
        // (Asked whenever there is a standby: a camera it is starting must be its to hand over,
        // or let go of, before it is opened here.)
        _ = lensSwitch.callOff()
        let taken = standby?.acquire(path: lensPaths[next])
        let swapped = taken?.session
        firstFrameOfSwitch = taken?.firstFrame
        if let leaving {
            log("lenses: \(lenses.lenses[leaving].role.rawValue) → \(lenses.lenses[next].role.rawValue) "
                + "at zoom \(Formatting.fixed(zoomWanted, 2))" + (swapped != nil ? ", its stream already running in standby" : "")
                + (firstFrameOfSwitch != nil ? " (shown from its next frame, the lens before shown until then)" : ""))
        }
        if let standby, let swapped {
            // Streams swapped: the lens left, still streaming, goes into standby.
            let left = session
            session = swapped
            if let leaving, left.isStreaming {
                standbyWished = lensPaths[leaving]
                standby.keep(left, path: lensPaths[leaving], lens: lenses.lenses[leaving].role.rawValue,
                             beside: lenses.lenses[next].role.rawValue)
            } else {
                left.stop()
            }
        } else {
            if switchingToStandby { session.stop() }
            session.choose(CameraChoice(source: .v4l2(devFolder: devFolder, path: lensPaths[next])), calibration: calibration)
        }
        switchingToStandby = false
    }

    /// The lens the zoom nears, streaming in standby (none when the zoom is far from a
    /// switch-over), its exposure following the one shown (twice a second at 30 fps, so the
    /// switch shows no flash while the new sensor's controls catch up).
    private func keepNeighbourReady() {
        guard let standby, let activeLens, lenses.lenses.indices.contains(activeLens) else { return }
        let soon = lenses.neighbourSoon(forZoom: zoomWanted)
        let path = soon.map { lensPaths[$0] }
        guard path != standbyWished || (path != nil && counters.frames % 15 == 0) else { return }
        standbyWished = path
        let exposureShown = counters.lastSequence.flatMap { exposure?.taken(forFrame: $0) }
        standby.want(path: path, calibration: soon.map { lensCalibrations[$0] } ?? calibration,
                     lens: soon.map { lenses.lenses[$0].role.rawValue } ?? "",
                     beside: lenses.lenses[activeLens].role.rawValue, exposure: exposureShown)
    }

    /// Fits `settings` to this camera (the one place they are fitted) and sends the sensor
    /// what changed.
    private func applySettings(_ settings: CameraSettings, afterFrame sequence: UInt32?) throws(CameraError) {
        let previousSpot = chosen.meteringPoint
        chosen = settings
        let fitted = report.limits.map { CameraModel(settings: settings, limits: $0).settings } ?? settings
        report.settings = fitted
        // (Changed in place: a copy of the controller would copy its history on the next change.)
        guard exposure != nil else { return }
        let change = exposure!.apply(fitted, afterFrame: sequence)
        if let wanted = change.exposure {
            // A control the driver refuses is reported and Auto's full limits kept: only a
            // lost camera ends the stream, or the same saved settings would end every restart.
            do {
                let applied = try session.applyExposure(wanted)
                exposure!.sent(applied, afterFrame: sequence)
                log("camera: \(change.exposureNote ?? "exposure") → \(session.describe(applied))")
            } catch .disconnected(let path) {
                throw CameraError.disconnected(path)
            } catch {
                log("camera: cannot set the manual exposure (\(error)); Auto exposure keeps it")
                exposure!.manualRefused()
            }
        }
        if let note = change.whiteBalanceNote { log("camera: " + note) }
        if change.lensChanged { try session.applyLens(fitted) }
        if fitted.meteringPoint != previousSpot { try focus(on: fitted, leaving: previousSpot, afterFrame: sequence) }
    }

    /// A spot tapped in Auto: where the camera has a focus motor and raw frames to measure,
    /// Reflex's contrast autofocus sweeps the lens for the spot. Back to the whole frame: the
    /// camera's own autofocus again where it has one, else a sweep for the frame's middle.
    private func focus(on settings: CameraSettings, leaving previous: MeteringPoint?,
                       afterFrame sequence: UInt32?) throws(CameraError) {
        tapFocus = nil
        guard settings.mode == .auto, session.hasFocusMotor, report.width > 0, report.height > 0 else { return }
        let box: PixelRect
        if let spot = settings.meteringPoint {
            box = spot.rect(width: report.width, height: report.height)
        } else if session.hasCameraAutofocus {
            // (Its own autofocus on again: the lens settings as Auto has them.)
            try session.applyLens(settings)
            return
        } else {
            box = PixelRect.centred(in: report.width, report.height, scale: 1.0 / 3)
        }
        let started = TapFocus(box: box, lens: session.focus, afterFrame: sequence ?? 0,
                               delayFrames: calibration.controlDelayFrames, now: clock.now())
        try session.moveLens(to: started.target)
        tapFocus = started
        log("camera: autofocus sweeping the lens for the " + (settings.meteringPoint.map {
            "spot at (\(Formatting.fixed($0.x, 2)), \(Formatting.fixed($0.y, 2)))" } ?? "frame's middle"))
    }

    /// One frame of a sweep: measured if the lens was in place for it, the lens moved on.
    private func stepTapFocus(_ frame: CapturedFrame, mode: CameraSession.Mode) throws(CameraError) {
        guard tapFocus != nil, !frame.corrupted, let layout = mode.rawLayout, frame.bytes.count >= mode.frameBytes,
              let next = tapFocus!.take(frame.bytes.baseAddress!, sequence: frame.sequence, layout: layout,
                                        blackLevel: session.blackLevel, delayFrames: calibration.controlDelayFrames)
        else { return }
        try session.moveLens(to: next)
        guard let outcome = tapFocus!.sweep.outcome else { return }
        let seconds = clock.now() - tapFocus!.startedAt
        switch outcome {
        case .focused(let position):
            log("camera: autofocus sharpest at \(FocusPosition(position)) after \(ContrastAutofocus.steps) positions in "
                + "\(Formatting.fixed(seconds, 1)) s")
        case .noContrast(let position):
            log("camera: autofocus found nothing sharp to focus on; the lens back at \(FocusPosition(position))")
        }
        report.focus = next
        tapFocus = nil
    }

    // MARK: one frame

    private func handle(_ frame: CapturedFrame, mode: CameraSession.Mode) throws(CameraError) {
        if let started = lensSwitchStartedAt {
            // (The viewfinder held the last lens's frame meanwhile.)
            // (From standby: how long the swap itself took, from its frame handed over to here.)
            let swap = handedOverAt.map { ", \(Int(((clock.now() - $0) * 1000).rounded())) ms of it the swap" } ?? ""
            log("lenses: the new lens's first frame \(Int(((clock.now() - started) * 1000).rounded())) ms "
                + "after the last lens's last" + swap)
            handedOverAt = nil
            lensSwitchStartedAt = nil
        }
        lastFrameHandledAt = clock.now()
        try takeControls(afterFrame: frame.sequence)
        counters.count(frame)
        let metered = !frame.corrupted && frame.bytes.count >= mode.frameBytes ? try meter(frame, mode: mode) : false
        try stepTapFocus(frame, mode: mode)
        if !frame.corrupted { deliver(frame, mode: mode) }
        publishReport(metered: metered, mode: mode)
        try session.giveBack(frame)
        summariseIfDue()
    }

    /// New settings (from the next frame on), the zoom and shutter presses.
    private func takeControls(afterFrame sequence: UInt32) throws(CameraError) {
        if let settings = mailbox.takeSettings(), settings != chosen { try applySettings(settings, afterFrame: sequence) }
        if let zoom = mailbox.takeZoom() {
            zoomWanted = zoom
            if let activeLens {
                // A switch to another lens asked before, or the zoom back on this lens before
                // the switch: called off first, its camera back in standby. A camera still
                // starting in standby is waited for, this lens shown (and zoomed) meanwhile:
                // the switch comes a little later, never a frozen picture.
                if lensSwitch.zoomAsks(for: lenses.lens(forZoom: zoom), shown: activeLens, at: clock.now()) {
                    standby?.cancelHandOver()
                }
                if case .restart? = askStandby() {
                    // No stream beside this one: the switch restarts the stream.
                    carriedExposure = exposure?.taken(forFrame: sequence)
                    switchingToStandby = false
                    lensSwitchStartedAt = clock.now()
                    restartRequested = true
                    return
                }
            }
            try session.setZoom(zoom / magnification, afterFrame: sequence)
        }
        let locked = mailbox.exposureLocked
        if exposure != nil && exposure!.locked != locked {
            exposure!.locked = locked
            log(locked ? "camera: exposure and white balance held (half press)" : "camera: exposure and white balance free again")
            try session.holdFocus(locked, settings: chosen)
        }
        while let request = mailbox.takeCaptureRequest() {
            report.captureRequestsTaken += 1
            if let shutter { shutter.add(request) } else { log("shutter: press \(request.number) ignored: photos are off") }
        }
    }

    /// Every few frames: statistics, Auto white balance and Auto exposure. True if metered.
    private func meter(_ frame: CapturedFrame, mode: CameraSession.Mode) throws(CameraError) -> Bool {
        guard let isp, let layout = mode.rawLayout, exposure?.meters(frameCount: counters.frames) == true,
              let parameters = exposure!.parameters(forFrame: frame.sequence) else { return false }
        isp.setParameters(parameters, format: layout.format)
        // A spot tapped in Auto is metered on its own (see ExposureController.meter).
        let spot = chosen.mode == .auto ? chosen.meteringPoint?.rect(width: layout.width, height: layout.height) : nil
        isp.collectStatistics(frame.bytes.baseAddress!, layout: layout, spot: spot, into: &statistics)
        if let next = exposure!.meter(statistics, frame: frame.sequence),
           let applied = try session.applyAutoExposure(next) {
            exposure!.sent(applied, afterFrame: frame.sequence)
        }
        return true
    }

    /// The frame to every sink; none waits.
    private func deliver(_ frame: CapturedFrame, mode: CameraSession.Mode) {
        let exposureTaken = exposure?.taken(forFrame: frame.sequence) ?? ExposureSetting(exposure: 1.0 / 30, analogGain: 1)
        let sensorFrame = SensorFrame(bytes: frame.bytes, mode: mode, sequence: frame.sequence,
                                      timestampNanoseconds: frame.timestampNanoseconds, exposure: exposureTaken,
                                      parameters: exposure?.parameters(forFrame: frame.sequence),
                                      sensorZoom: session.sensorZoom(forFrame: frame.sequence) * magnification)
        // (One atomic load a frame; the ring changes only when the level does.)
        if let shutter, let memoryPressure { shutter.adapt(to: memoryPressure.level) }
        for sink in sinks { sink.deliver(sensorFrame) }
        if let shutter, shutter.waiting > 0, shutter.stillFrames == nil {
            let model = session.exposureModel
            shutter.serve(sensorFrame, settings: chosen) { model.iso(of: $0) }
        }
    }

    /// The report goes out when something in it changed: the status, a metering, a loss.
    private func publishReport(metered: Bool, mode: CameraSession.Mode) {
        var lost = 0
        for sink in sinks { lost += sink.framesLost }
        let taken = shutter?.taken ?? 0, cancelled = shutter?.cancelled ?? 0
        let changed = report.status != .streaming || metered || lost != report.framesLost
            || report.captureRequestsTaken != counters.capturesReported || taken != report.photosTaken
            || cancelled != report.photosCancelled
        guard changed else { return }
        report.status = .streaming
        report.framesLost = lost
        report.photosTaken = taken
        report.photosCancelled = cancelled
        counters.capturesReported = report.captureRequestsTaken
        if let controller = exposure, controller.meters {
            report.exposureSeconds = controller.requested.exposure
            report.iso = controller.iso
            if metered {
                report.kelvin = controller.kelvin
                for bin in 0..<min(FrameStatistics.histogramBins, 64) { report.histogram[bin] = statistics.histogram[bin] }
                report.hasHistogram = true
            }
        }
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
        guard now - counters.summaryStart >= SensorPipeline.summaryInterval, let controller = exposure else { return }
        let allocations = reflex_thread_allocations() - counters.allocationsAtSummary
        let frames = counters.framesSinceSummary
        let rate = Double(frames) / (now - counters.summaryStart)
        var line = "camera: \(frames) frames in \(Int((now - counters.summaryStart).rounded())) s "
            + "(\(Int(rate.rounded())) fps), \(counters.dropped) dropped, \(counters.lastBytes) bytes a frame, "
            + "\(session.describe(controller.requested)), luma \(Int((controller.lastLuma * 1000).rounded()))/1000, "
            + controller.whiteBalanceDescription
            + ", \(allocations / Int64(max(frames, 1))) allocations a frame"
        for sink in sinks where sink.framesLost > 0 { line += ", \(sink.name) lost \(sink.framesLost) frames" }
        log(line)
        // A lens whose camera went (or came) is dropped from (or added to) the buttons. (A
        // probe of the nodes, between two frames every few seconds: it allocates, and is
        // not counted as the frame path's.)
        if !boardLenses.isEmpty { findLenses() }
        counters.startSummary(at: clock.now())
    }
}
