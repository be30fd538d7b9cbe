import ReflexCore
import ReflexHardware
import ReflexISP
import ReflexSystem

/// A board's several cameras as one camera, on the sensor thread: finds the lenses' cameras,
/// streams the one the zoom asks for, keeps the one it nears streaming in standby, and
/// switches between them (`LensSwitch` decides when; this carries it out). Sensor thread
/// only, except the standby's own thread.
final class LensChanger {
    private let boardLenses: [BoardLens]
    private let place: LensCameraPlace
    private let standby: StandbyCamera
    private let clock: TimeSource
    private let log: SensorPipeline.Log
    /// Those present the last time they were looked for, and their cameras' names
    /// (`LensCameraPlace`: a node's path, or a simulated lens's).
    private var lenses = LensSet([])
    private var paths: [String] = []
    private var calibrations: [SensorCalibration] = []
    /// The lens streaming (an index in `lenses`).
    private(set) var active: Int?
    /// The lenses' cameras must be looked for again (at start, after a loss).
    var stale = true
    /// The camera last wished in standby.
    private var standbyWished: String?
    private var lensSwitch = LensSwitch()
    /// The switch under way found its lens streaming in standby: the session shown is not
    /// stopped, it becomes the standby (the zoom may go back).
    private(set) var keepsSessionShown = false
    /// The frame the standby handed over with its camera, to show first.
    private var firstFrameOfSwitch: CapturedFrame?
    /// The exposure the lens before had: the next one starts from it (no flash of a new Auto
    /// exposure across a switch).
    private var carriedExposure: ExposureSetting?
    /// When the last lens's last frame was in, and when the standby handed its camera over:
    /// the new lens's first frame says the gap, and the swap's own part of it.
    private var switchStartedAt: Double?
    private var handedOverAt: Double?
    private var lastFrameAt: Double?

    init(boardLenses: [BoardLens], place: LensCameraPlace, clock: TimeSource, log: @escaping SensorPipeline.Log) {
        (self.boardLenses, self.place, self.clock, self.log) = (boardLenses, place, clock, log)
        standby = StandbyCamera(place: place, log: log)
    }

    func start() { standby.start() }
    func stop() { standby.stop() }

    /// The streaming lens's magnification against the wide: a frame's `sensorZoom` counts
    /// it, so the ISP crops the rest of the zoom.
    var magnification: Double { active.map { lenses.lenses[$0].magnification } ?? 1 }

    /// No switch under way (the sensor thread then sleeps longer between wake-ups).
    var isSteady: Bool { lensSwitch.isSteady }

    /// Readable when the camera asked for has its frame.
    var handOverDescriptor: Int32 { standby.handOverDescriptor }

    /// Looks for the lenses' cameras: those found are offered, the others not. The roles
    /// present (a bit each, in `LensDescription.Role`'s order) when they changed.
    func findCameras() -> UInt8? {
        stale = false
        var (present, missing) = place.find(boardLenses)
        present.sort { $0.0.description.magnification < $1.0.description.magnification }
        let set = LensSet(present.map(\.0.description))
        let found = present.map(\.1)
        guard set != lenses || found != paths else { return nil }
        log("lenses: " + (present.isEmpty ? "none present" : present.map { lens, path in
            "\(lens.description.role.rawValue) \(lens.description.label) on \(path)"
        }.joined(separator: ", ")) + (missing.isEmpty ? "" : "; missing: " + missing.joined(separator: ", ")))
        // The lens streaming keeps its place under its new index.
        let streaming = active.map { paths[$0] }
        (lenses, paths, calibrations) = (set, found, present.map(\.0.calibration))
        active = streaming.flatMap { found.firstIndex(of: $0) }
        return present.reduce(UInt8(0)) { mask, lens in
            mask | UInt8(1 << (LensDescription.Role.allCases.firstIndex(of: lens.0.description.role) ?? 0))
        }
    }

    /// The lens `zoom` asks for becomes the one `session` streams: swapped in from standby
    /// (the lens left going into standby) or chosen for the session to open. Its role and
    /// calibration; nil when no lens is present.
    func choose(zoom: Double, session: inout CameraSession) -> (role: LensDescription.Role, calibration: SensorCalibration)? {
        guard !lenses.lenses.isEmpty else {
            active = nil
            return nil
        }
        let next = lenses.lens(forZoom: zoom)
        let leaving = active.flatMap { lenses.lenses.indices.contains($0) && $0 != next ? $0 : nil }
        active = next
        // (Asked whenever there is a standby: a camera it is starting must be its to hand over,
        // or let go of, before it is opened here.)
        _ = lensSwitch.callOff()
        let taken = standby.acquire(path: paths[next])
        firstFrameOfSwitch = taken?.firstFrame
        if let leaving {
            log("lenses: \(lenses.lenses[leaving].role.rawValue) → \(lenses.lenses[next].role.rawValue) "
                + "at zoom \(Formatting.fixed(zoom, 2))" + (taken != nil ? ", its stream already running in standby" : "")
                + (firstFrameOfSwitch != nil ? " (shown from its next frame, the lens before shown until then)" : ""))
        }
        if let swapped = taken?.session {
            // Streams swapped: the lens left, still streaming, goes into standby.
            let left = session
            session = swapped
            if let leaving, left.isStreaming {
                standbyWished = paths[leaving]
                standby.keep(left, path: paths[leaving], lens: lenses.lenses[leaving].role.rawValue,
                             beside: lenses.lenses[next].role.rawValue)
            } else {
                left.stop()
            }
        } else {
            if keepsSessionShown { session.stop() }
            session.choose(CameraChoice(source: place.source(for: paths[next])), calibration: calibrations[next])
        }
        keepsSessionShown = false
        return (lenses.lenses[next].role, calibrations[next])
    }

    /// The lens the zoom nears, streaming in standby (none when the zoom is far from a
    /// switch-over), its exposure following the one shown (re-sent every 15th frame, twice a
    /// second at 30 fps, so the switch shows no flash while the new sensor's controls catch up).
    func keepNeighbourReady(zoom: Double, frames: Int, exposureShown: @autoclosure () -> ExposureSetting?,
                            calibrationShown: SensorCalibration) {
        guard lensSwitch.isSteady, let active, lenses.lenses.indices.contains(active) else { return }
        let soon = lenses.neighbourSoon(forZoom: zoom)
        let path = soon.map { paths[$0] }
        guard path != standbyWished || (path != nil && frames % 15 == 0) else { return }
        standbyWished = path
        standby.want(path: path, calibration: soon.map { calibrations[$0] } ?? calibrationShown,
                     lens: soon.map { lenses.lenses[$0].role.rawValue } ?? "",
                     beside: lenses.lenses[active].role.rawValue, exposure: exposureShown())
    }

    /// The zoom moved to `zoom`: a switch to the lens it asks for begins (or one under way is
    /// called off, the zoom back on the lens shown). True when the switch must restart the
    /// stream at once (nothing streams that lens in standby).
    func zoomChanged(to zoom: Double, exposureShown: @autoclosure () -> ExposureSetting?) -> Bool {
        guard let active else { return false }
        // A switch to another lens asked before, or the zoom back on this lens before the
        // switch: called off first, its camera back in standby. A camera still starting in
        // standby is waited for, this lens shown (and zoomed) meanwhile: the switch comes a
        // little later, never a frozen picture.
        if lensSwitch.zoomAsks(for: lenses.lens(forZoom: zoom), shown: active, at: clock.now()) {
            standby.cancelHandOver()
        }
        guard case .restart? = askStandby() else { return false }
        carriedExposure = exposureShown()
        keepsSessionShown = false
        switchStartedAt = clock.now()
        return true
    }

    /// At each wake-up of the sensor thread: whether the switch under way ends now (the
    /// standby's frame came — `handOverReadable` — or the lens is not in standby, or a wait
    /// passed its deadline). Then the stream restarts on the new lens.
    func switchEnds(handOverReadable: Bool, exposureShown: @autoclosure () -> ExposureSetting?) -> Bool {
        // The lens switched to, still starting in standby, may stream now; once it does, its
        // next frame is shown next, from the standby's stream.
        var outcome = askStandby()
        if handOverReadable {
            if lensSwitch.isWaitingForFrame { outcome = lensSwitch.frameHandedOver() } else { standby.drainHandOver() }
        }
        guard let ended = outcome ?? lensSwitch.timePassed(clock.now()) else { return false }
        switch ended {
        case .handedOver, .restart(_, .notInStandby):
            break
        case .restart(let lens, let reason):
            standby.cancelHandOver()
            let role = lenses.lenses.indices.contains(lens) ? lenses.lenses[lens].role.rawValue : "lens"
            log("lenses: the \(role)'s camera in standby " + (reason == .gaveNoFrame
                ? "gave no frame in \(Int(LensSwitch.framePatience * 1000)) ms"
                : "did not start in \(Formatting.fixed(LensSwitch.startPatience, 1)) s") + ": switching by a restart")
        }
        handedOverAt = isHandOver(ended) ? clock.now() : nil
        // The exposure shown last, for the new lens to start from.
        carriedExposure = exposureShown()
        keepsSessionShown = true
        switchStartedAt = lastFrameAt ?? clock.now()
        return true
    }

    private func isHandOver(_ outcome: LensSwitch.Outcome) -> Bool {
        if case .handedOver = outcome { true } else { false }
    }

    /// Asks the standby for the lens switched to at its next frame while its camera starts
    /// (asked again each wake-up); a restart when the standby does not have it at all.
    private func askStandby() -> LensSwitch.Outcome? {
        guard let lens = lensSwitch.target, lensSwitch.isWaitingForStart else { return nil }
        let path = paths[lens]
        let answer: LensSwitch.StandbyAnswer = if standby.handOver(path: path) {
            .streaming
        } else if standby.involves(path) {
            .starting
        } else {
            .absent
        }
        return lensSwitch.standbyAnswered(answer, at: clock.now())
    }

    /// The camera was lost: a switch under way is off.
    func cameraLost() {
        stale = true
        keepsSessionShown = false
        if lensSwitch.callOff() { standby.cancelHandOver() }
        firstFrameOfSwitch = nil
    }

    /// The frame the standby handed over with the session swapped in, once: the new lens's first.
    func takeFirstFrameOfSwitch() -> CapturedFrame? {
        defer { firstFrameOfSwitch = nil }
        return firstFrameOfSwitch
    }

    /// The lens before's exposure, once, for the new stream to start from.
    func takeCarriedExposure() -> ExposureSetting? {
        defer { carriedExposure = nil }
        return carriedExposure
    }

    /// A frame came at `now`: the first of a new lens says how long the viewfinder held the
    /// last lens's frame (from standby: how long the swap itself took, from its frame handed
    /// over to here).
    func frameArrived(at now: Double) {
        if let started = switchStartedAt {
            let swap = handedOverAt.map { ", \(Int(((now - $0) * 1000).rounded())) ms of it the swap" } ?? ""
            log("lenses: the new lens's first frame \(Int(((now - started) * 1000).rounded())) ms "
                + "after the last lens's last" + swap)
            (handedOverAt, switchStartedAt) = (nil, nil)
        }
        lastFrameAt = now
    }
}
