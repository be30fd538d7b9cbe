import ReflexCore
import ReflexHardware
import ReflexISP
import ReflexSystem
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The lens the zoom is about to change to, already streaming beside the one shown: where a
/// board lets two cameras stream at once, a switch then swaps streams instead of starting
/// one (no frozen viewfinder while a sensor starts). It runs on a thread of its own, so
/// starting a camera (a tenth of a second or more) never holds up the stream shown; its
/// frames are taken and given straight back, so it keeps running with its buffers free, and
/// its exposure follows the one shown. A camera that cannot stream beside another (one CSI
/// receiver shared by two sensors, a USB bus without the bandwidth) is said once and not
/// tried again: switching to it restarts the stream, as before.
///
/// The sensor thread says which camera it wants (`want`); at a switch it asks for it at its
/// next frame (`handOver`) and keeps showing its own lens until then, so the viewfinder never
/// waits longer than a frame of the lens shown; then it takes the session and that frame
/// (`acquire`). The standby thread does the rest. A session is touched by one thread at a
/// time: the standby thread's until it is handed over, the sensor thread's after; the two
/// pass sessions through the shared state, and no ioctl is ever made under its lock (a
/// camera's ioctl can take milliseconds, and the sensor thread must never wait for one).
final class StandbyCamera: @unchecked Sendable {
    /// What the sensor thread asks for.
    struct Wish {
        var path: String?
        var calibration = SensorCalibration()
        var lens = "", shown = ""
        var exposure: ExposureSetting?
    }

    /// A camera session passing from one thread to the other, with the frame it was handed
    /// over at (not given back: the first the switch shows) or, on its way back, the frame to
    /// give back. Only the thread holding it touches the session, so it may cross.
    struct Passed: @unchecked Sendable {
        let session: CameraSession
        let path: String
        var frame: CapturedFrame?
        /// For a lens left at a switch: which lens it is, and beside which (for the log).
        var lens = "", shown = ""
    }

    private struct State {
        var wish = Wish()
        /// The camera streaming in standby (its session is the standby thread's own).
        var streaming: String?
        /// The camera the standby thread is starting now.
        var starting: String?
        /// The camera asked for at its next frame (`handOver`), or at once (`acquire`).
        var handOverPath: String?
        var takeAtOnce: String?
        /// A session on its way to the sensor thread.
        var handedOver: Passed?
        /// Sessions on their way back to the standby thread: the lens left at a switch, still
        /// streaming, or one handed over for a switch since called off.
        var returned: [Passed] = []
    }

    private let shared = Mutex(State())
    /// The session streaming in standby and its camera's path, cameras that could not stream
    /// beside another, and the exposure last given the one in standby (standby thread only).
    private var session: CameraSession?
    private var sessionPath: String?
    private var refused: Set<String> = []
    private var followed: ExposureSetting?
    private let place: LensCameraPlace
    private let log: SensorPipeline.Log
    private let thread = WorkerThread(name: "reflex-standby")
    /// Signalled when a camera asked for has its frame (or is handed over at once): polled by
    /// the sensor thread.
    private let handedOverSignal = EventSignal()
    /// The most frames taken from the camera in standby at one wake-up.
    static let framesTakenAtOnce = 4

    init(place: LensCameraPlace, log: @escaping SensorPipeline.Log) {
        self.place = place
        self.log = log
    }

    func start() { thread.start { self.run() } }

    /// Stops the thread, then every camera it or the hand-over held.
    func stop() {
        thread.stop()
        let left = shared.withLock { state -> [Passed] in
            defer { (state.handedOver, state.returned, state.streaming) = (nil, [], nil) }
            return state.returned + (state.handedOver.map { [$0] } ?? [])
        }
        for passed in left { passed.session.stop() }
        session?.stop()
        (session, sessionPath) = (nil, nil)
    }

    // MARK: the sensor thread's side

    /// The camera at `path` (nil: none) should stream in standby, `lens` beside `shown`, with
    /// `exposure` (the stream shown's, followed); never waits for a camera to start.
    func want(path: String?, calibration: SensorCalibration, lens: String, beside shown: String, exposure: ExposureSetting?) {
        let changed = shared.withLock { state -> Bool in
            let changed = state.wish.path != path || state.wish.exposure != exposure
            state.wish = Wish(path: path, calibration: calibration, lens: lens, shown: shown, exposure: exposure)
            return changed
        }
        if changed { thread.wake() }
    }

    /// Whether the camera at `path` is in standby, being started for it, or wished there.
    func involves(_ path: String) -> Bool {
        shared.withLock { $0.streaming == path || $0.starting == path || $0.wish.path == path }
    }

    /// Readable when the camera asked for with `handOver` has its frame.
    var handOverDescriptor: Int32 { handedOverSignal.descriptor }
    func drainHandOver() { handedOverSignal.drain() }

    /// Asks for the camera at `path`, streaming in standby, at its next frame (signalled on
    /// `handOverDescriptor`); false when it is not streaming here (the caller switches as it
    /// would without a standby).
    func handOver(path: String) -> Bool {
        let asked = shared.withLock { state -> Bool in
            guard state.streaming == path else { return false }
            state.handOverPath = path
            return true
        }
        if asked { thread.wake() }
        return asked
    }

    /// The switch asked for is off (the zoom went back, or the frame did not come in time):
    /// a camera already handed over with its frame goes back into standby.
    func cancelHandOver() {
        let returned = shared.withLock { state -> Bool in
            state.handOverPath = nil
            guard let passed = state.handedOver else { return false }
            state.handedOver = nil
            state.returned.append(passed)
            state.wish.path = passed.path
            return true
        }
        handedOverSignal.drain()
        if returned { thread.wake() }
    }

    /// The session streaming `wanted`, handed over, with the frame it was handed over at (if
    /// it was asked for with `handOver`): as soon as the standby thread hands it over when it
    /// streams, after its start ends when it is being started (at most `patience` seconds).
    /// Nil when it is not in standby; then nothing here holds it or will start it (the wish
    /// for it is dropped), so the caller may open it itself.
    func acquire(path wanted: String, patience: Double = LensSwitch.startPatience) -> (session: CameraSession, firstFrame: CapturedFrame?)? {
        let deadline = monotonicSeconds() + patience
        var wokeStandby = false
        while true {
            let (taken, waiting) = shared.withLock { state -> (Passed?, Bool) in
                state.handOverPath = nil
                if let passed = state.handedOver {
                    state.handedOver = nil
                    if passed.path == wanted { return (passed, false) }
                    // Handed over for a switch since called off: back into standby.
                    state.returned.append(passed)
                    state.wish.path = passed.path
                }
                if state.streaming == wanted {
                    // Streaming: the standby thread hands it over at once.
                    state.takeAtOnce = wanted
                    return (nil, true)
                }
                state.takeAtOnce = nil
                if state.wish.path == wanted { state.wish.path = nil }
                return (nil, state.starting == wanted)
            }
            handedOverSignal.drain()
            if let taken { return (taken.session, taken.frame) }
            guard waiting, monotonicSeconds() < deadline else {
                if wokeStandby { thread.wake() }
                return nil
            }
            thread.wake()
            wokeStandby = true
            usleep(1_000)
        }
    }

    /// `session` (the lens just left, still streaming) goes into standby: the zoom is still
    /// near the switch, and may go back.
    func keep(_ session: CameraSession, path: String, lens: String, beside shown: String) {
        shared.withLock { state in
            state.returned.append(Passed(session: session, path: path, frame: nil, lens: lens, shown: shown))
            (state.wish.path, state.wish.lens, state.wish.shown) = (path, lens, shown)
        }
        thread.wake()
    }

    // MARK: the standby thread

    private func run() {
        while !thread.isStopping {
            adoptReturned()
            handOverAtOnce()
            // What is wished and what streams, read together; a start is marked in the same
            // step, so `acquire` sees it (or this thread sees the wish it dropped).
            let (wish, start) = shared.withLock { state -> (Wish, Bool) in
                let start = state.wish.path != sessionPath
                if start { (state.starting, state.streaming) = (state.wish.path, nil) }
                return (state.wish, start)
            }
            if start { startWished(wish) }
            drainAndFollow(wish.exposure)
            var descriptors = [pollfd(fd: session?.descriptor ?? -1, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: thread.wakeDescriptor, events: Int16(POLLIN), revents: 0)]
            _ = poll(&descriptors, 2, 200)
            if descriptors[1].revents & Int16(POLLIN) != 0 { thread.drainWake() }
        }
    }

    /// Sessions handed back become the standby, in the order they came (the one before, if
    /// any, stops); a frame one was handed over at is given back first.
    private func adoptReturned() {
        let returned = shared.withLock { state -> [Passed] in
            defer { state.returned = [] }
            return state.returned
        }
        for passed in returned {
            if let frame = passed.frame {
                do {
                    try passed.session.giveBack(frame)
                } catch {
                    passed.session.stop()
                    continue
                }
            }
            session?.stop()
            (session, sessionPath) = (passed.session, passed.path)
            shared.withLock { $0.streaming = passed.path }
            if !passed.lens.isEmpty { log("lenses: the \(passed.lens) streams beside the \(passed.shown), ready for the switch") }
        }
    }

    /// The camera `acquire` asks for at once, handed over without a frame.
    private func handOverAtOnce() {
        guard let session, let path = sessionPath else { return }
        let handed = shared.withLock { state -> Bool in
            guard state.takeAtOnce == path else { return false }
            // (Nothing in standby until the sensor thread wishes again: the camera taken is
            // the one shown now, not to be started a second time.)
            state.handedOver = Passed(session: session, path: path, frame: nil)
            (state.takeAtOnce, state.streaming, state.handOverPath, state.wish.path) = (nil, nil, nil, nil)
            return true
        }
        guard handed else { return }
        (self.session, sessionPath) = (nil, nil)
        handedOverSignal.signal()
    }

    /// Stops the camera in standby and starts the one wished for (the sensor thread never
    /// waits for it: starting takes a while).
    private func startWished(_ wish: Wish) {
        session?.stop()
        (session, sessionPath) = (nil, nil)
        guard let path = wish.path, !refused.contains(path) else {
            shared.withLock { $0.starting = nil }
            return
        }
        // (Its log is the camera's: once swapped in, it is the stream shown.)
        let candidate = CameraSession(choice: CameraChoice(source: place.source(for: path)),
                                      calibration: wish.calibration, log: log)
        do {
            guard try candidate.start() else {
                shared.withLock { $0.starting = nil }
                return
            }
            if let exposure = wish.exposure { _ = try? candidate.applyExposure(exposure) }
            followed = wish.exposure
            // Published only if it is still wished (the sensor thread may have dropped it).
            let kept = shared.withLock { state -> Bool in
                state.starting = nil
                guard state.wish.path == path else { return false }
                state.streaming = path
                return true
            }
            guard kept else {
                candidate.stop()
                return
            }
            (session, sessionPath) = (candidate, path)
            log("lenses: the \(wish.lens) streams beside the \(wish.shown), ready for the switch")
        } catch {
            candidate.stop()
            shared.withLock { $0.starting = nil }
            refused.insert(path)
            log("lenses: the \(wish.lens)'s camera cannot stream beside the \(wish.shown)'s (\(error)): "
                + "switching to it restarts the stream")
        }
    }

    /// Takes the frames the standby camera has and gives them straight back, its exposure the
    /// one shown (or, asked for at its next frame, hands it over with that frame); a camera
    /// that fails is dropped.
    private func drainAndFollow(_ exposure: ExposureSetting?) {
        guard let session, let path = sessionPath else { return }
        let follow = exposure != followed ? exposure : nil
        if follow != nil { followed = exposure }
        do {
            var newest: CapturedFrame?
            // (A few at most: a camera slower to make a frame than its frame time, the
            // simulated sensor in a debug build, would always have another.)
            for _ in 0..<StandbyCamera.framesTakenAtOnce {
                guard let frame = try session.nextFrame() else { break }
                if let older = newest { try session.giveBack(older) }
                newest = frame
            }
            if let newest {
                // Asked for at its next frame: this one, kept for the switch to show.
                let handed = shared.withLock { state -> Bool in
                    guard state.handOverPath == path else { return false }
                    state.handedOver = Passed(session: session, path: path, frame: newest)
                    (state.streaming, state.handOverPath, state.wish.path) = (nil, nil, nil)
                    return true
                }
                if handed {
                    (self.session, sessionPath) = (nil, nil)
                    handedOverSignal.signal()
                    return
                }
                try session.giveBack(newest)
            }
            if let follow { _ = try? session.applyExposure(follow) }
        } catch {
            session.stop()
            (self.session, sessionPath) = (nil, nil)
            shared.withLock { $0.streaming = nil }
            log("lenses: the camera in standby stopped (\(error))")
        }
    }
}
