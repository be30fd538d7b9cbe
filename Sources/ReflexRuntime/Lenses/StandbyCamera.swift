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
/// time: the standby thread's until it is handed over, under the lock.
final class StandbyCamera: @unchecked Sendable {
    /// What the sensor thread asks for.
    struct Wish {
        var path: String?
        var calibration = SensorCalibration()
        var lens = "", shown = ""
        var exposure: ExposureSetting?
    }

    private struct State {
        var wish = Wish()
        /// The session streaming, and its camera's path (standby thread; handed over under the lock).
        var session: CameraSession?
        var path: String?
        /// A session handed back by a switch (the lens left, still streaming), to keep.
        var returned: (CameraSession, String, lens: String, shown: String)?
        /// The camera the standby thread is starting now (off the lock).
        var starting: String?
        /// The camera asked for at its next frame, and once that frame came, the session
        /// with it (the frame not given back: it is the first the switch shows).
        var handOverPath: String?
        var handedOver: (session: CameraSession, frame: CapturedFrame, path: String)?
    }

    /// The state both threads see, under `lock` (a Mutex of its own: a camera session is not
    /// a value that can live inside one).
    private let lock = Mutex<Void>(())
    private var shared = State()
    /// Cameras that could not stream beside another, and the exposure last given the one in
    /// standby (standby thread only).
    private var refused: Set<String> = []
    private var followed: ExposureSetting?
    private let devFolder: String
    private let log: SensorPipeline.Log
    private let thread = WorkerThread(name: "reflex-standby")
    /// Signalled when a camera asked for with `handOver` has its frame: polled by the sensor thread.
    private let handedOverSignal = EventSignal()

    init(devFolder: String, log: @escaping SensorPipeline.Log) {
        self.devFolder = devFolder
        self.log = log
    }

    func start() { thread.start { self.run() } }

    /// Stops the thread and the camera in standby.
    func stop() {
        thread.stop()
        lock.withLock { _ in
            shared.session?.stop()
            shared.returned?.0.stop()
            shared.handedOver?.session.stop()
            (shared.session, shared.path, shared.returned, shared.handedOver) = (nil, nil, nil, nil)
        }
    }

    // MARK: the sensor thread's side

    /// The camera at `path` (nil: none) should stream in standby, `lens` beside `shown`, with
    /// `exposure` (the stream shown's, followed); never waits for a camera to start.
    func want(path: String?, calibration: SensorCalibration, lens: String, beside shown: String, exposure: ExposureSetting?) {
        let changed = lock.withLock { _ -> Bool in
            let changed = shared.wish.path != path || shared.wish.exposure != exposure
            shared.wish = Wish(path: path, calibration: calibration, lens: lens, shown: shown, exposure: exposure)
            return changed
        }
        if changed { thread.wake() }
    }

    /// Whether the camera at `path` is in standby, being started for it, or wished there.
    func involves(_ path: String) -> Bool {
        lock.withLock { _ in shared.path == path || shared.starting == path || shared.wish.path == path }
    }

    /// Readable when the camera asked for with `handOver` has its frame.
    var handOverDescriptor: Int32 { handedOverSignal.descriptor }
    func drainHandOver() { handedOverSignal.drain() }

    /// Asks for the camera at `path`, streaming in standby, at its next frame (signalled on
    /// `handOverDescriptor`); false when it is not streaming here (the caller switches as it
    /// would without a standby).
    func handOver(path: String) -> Bool {
        let asked = lock.withLock { _ -> Bool in
            guard shared.path == path, shared.session?.isStreaming == true else { return false }
            shared.handOverPath = path
            return true
        }
        if asked { thread.wake() }
        return asked
    }

    /// The switch asked for is off (the zoom went back, or the frame did not come in time):
    /// a camera already handed over with its frame goes back into standby.
    func cancelHandOver() {
        lock.withLock { _ in
            shared.handOverPath = nil
            guard let (session, frame, path) = shared.handedOver else { return }
            shared.handedOver = nil
            putBack(session, frame: frame, path: path)
        }
        handedOverSignal.drain()
    }

    /// A session handed over and not taken goes back into standby, its frame given back
    /// (under the lock).
    private func putBack(_ session: CameraSession, frame: CapturedFrame, path: String) {
        do {
            try session.giveBack(frame)
            shared.session?.stop()
            (shared.session, shared.path, shared.wish.path) = (session, path, path)
        } catch {
            session.stop()
        }
    }

    /// The session streaming `wanted`, handed over, with the frame it was handed over at (if
    /// it was asked for with `handOver`): at once when it is ready, after its start ends when
    /// it is being started (at most `patience` seconds). Nil when it is not in standby; then
    /// nothing here holds it or will start it (the wish for it is dropped), so the caller may
    /// open it itself.
    func acquire(path wanted: String, patience: Double = 3) -> (session: CameraSession, firstFrame: CapturedFrame?)? {
        let deadline = monotonicSeconds() + patience
        while true {
            let (taken, starting) = lock.withLock { _ -> ((CameraSession, CapturedFrame?)?, Bool) in
                shared.handOverPath = nil
                if let (session, frame, path) = shared.handedOver {
                    shared.handedOver = nil
                    if path == wanted { return ((session, frame), false) }
                    // Handed over for a switch since called off: back into standby.
                    putBack(session, frame: frame, path: path)
                }
                if shared.path == wanted, let session = shared.session, session.isStreaming {
                    // (Nothing in standby until the sensor thread wishes again: the camera
                    // taken is the one shown now, not to be started a second time.)
                    (shared.session, shared.path, shared.wish.path) = (nil, nil, nil)
                    return ((session, nil), false)
                }
                if shared.wish.path == wanted { shared.wish.path = nil }
                return (nil, shared.starting == wanted || shared.path == wanted)
            }
            handedOverSignal.drain()
            if let (session, frame) = taken { return (session, frame) }
            guard starting, monotonicSeconds() < deadline else { return nil }
            thread.wake()
            usleep(2_000)
        }
    }

    /// `session` (the lens just left, still streaming) goes into standby: the zoom is still
    /// near the switch, and may go back.
    func keep(_ session: CameraSession, path: String, lens: String, beside shown: String) {
        lock.withLock { _ in
            shared.returned = (session, path, lens, shown)
            (shared.wish.path, shared.wish.lens, shared.wish.shown) = (path, lens, shown)
        }
        thread.wake()
    }

    // MARK: the standby thread

    private func run() {
        while !thread.isStopping {
            adoptReturned()
            // What is wished and what streams, read together; a start is marked in the same
            // step, so `acquire` sees it (or this thread sees the wish it dropped).
            let (wish, start) = lock.withLock { _ -> (Wish, Bool) in
                let start = shared.wish.path != shared.path
                if start { shared.starting = shared.wish.path }
                return (shared.wish, start)
            }
            if start { startWished(wish) }
            drainAndFollow(wish.exposure)
            let descriptor = lock.withLock { _ in shared.session?.descriptor ?? -1 }
            var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: thread.wakeDescriptor, events: Int16(POLLIN), revents: 0)]
            _ = poll(&descriptors, 2, 200)
            if descriptors[1].revents & Int16(POLLIN) != 0 { thread.drainWake() }
        }
    }

    /// A session a switch handed back becomes the standby (the one before, if any, stops).
    private func adoptReturned() {
        let adopted: (String, String)? = lock.withLock { _ in
            guard let (session, path, lens, shown) = shared.returned else { return nil }
            shared.returned = nil
            shared.session?.stop()
            (shared.session, shared.path) = (session, path)
            return (lens, shown)
        }
        if let (lens, shown) = adopted { log("lenses: the \(lens) streams beside the \(shown), ready for the switch") }
    }

    /// Stops the camera in standby and starts the one wished for (off the lock: starting
    /// takes a while, and the sensor thread must never wait for it).
    private func startWished(_ wish: Wish) {
        let old = lock.withLock { _ -> CameraSession? in
            let old = shared.session
            (shared.session, shared.path) = (nil, nil)
            return old
        }
        old?.stop()
        guard let path = wish.path, !refused.contains(path) else {
            lock.withLock { _ in shared.starting = nil }
            return
        }
        // (Its log is the camera's: once swapped in, it is the stream shown.)
        let candidate = CameraSession(choice: CameraChoice(source: .v4l2(devFolder: devFolder, path: path)),
                                      calibration: wish.calibration, log: log)
        do {
            guard try candidate.start() else {
                lock.withLock { _ in shared.starting = nil }
                return
            }
            if let exposure = wish.exposure { _ = try? candidate.applyExposure(exposure) }
            followed = wish.exposure
            // Published only if it is still wished (the sensor thread may have dropped it).
            let kept = lock.withLock { _ -> Bool in
                shared.starting = nil
                guard shared.wish.path == path else { return false }
                (shared.session, shared.path) = (candidate, path)
                return true
            }
            guard kept else {
                candidate.stop()
                return
            }
            log("lenses: the \(wish.lens) streams beside the \(wish.shown), ready for the switch")
        } catch {
            candidate.stop()
            lock.withLock { _ in shared.starting = nil }
            refused.insert(path)
            log("lenses: the \(wish.lens)'s camera cannot stream beside the \(wish.shown)'s (\(error)): "
                + "switching to it restarts the stream")
        }
    }

    /// Takes the frames the standby camera has and gives them straight back, its exposure the
    /// one shown (or, asked for at its next frame, hands it over with that frame); a camera
    /// that fails is dropped.
    private func drainAndFollow(_ exposure: ExposureSetting?) {
        let follow = exposure != followed ? exposure : nil
        if follow != nil { followed = exposure }
        let failed: Error? = lock.withLock { _ in
            guard let session = shared.session, let path = shared.path else { return nil }
            do {
                var newest: CapturedFrame?
                while let frame = try session.nextFrame() {
                    if let older = newest { try session.giveBack(older) }
                    newest = frame
                }
                if let newest {
                    // Asked for at its next frame: this one, kept for the switch to show.
                    if shared.handOverPath == path {
                        shared.handedOver = (session, newest, path)
                        (shared.session, shared.path, shared.handOverPath, shared.wish.path) = (nil, nil, nil, nil)
                        handedOverSignal.signal()
                        return nil
                    }
                    try session.giveBack(newest)
                }
                if let follow { _ = try? session.applyExposure(follow) }
                return nil
            } catch {
                session.stop()
                (shared.session, shared.path) = (nil, nil)
                return error
            }
        }
        if let failed { log("lenses: the camera in standby stopped (\(failed))") }
    }
}
