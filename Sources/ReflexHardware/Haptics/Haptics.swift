import CLibinput
import ReflexCore
import ReflexSystem
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The camera's sense of touch: finds the board's vibrator by its capability (any evdev node
/// with force feedback that can rumble), loads the effects into it, and lets the realtime
/// loop play them. Finding and loading happen on a thread of their own (uploading an effect
/// can wait on the driver); a vibrator that appears later (udev) is taken up, one that goes
/// away is let go. Where the board has none, `play` does nothing.
public final class Haptics: @unchecked Sendable {
    public typealias Log = @Sendable (String) -> Void

    /// How long a let-go vibrator stays open: the loop may have loaded it just before.
    static let retireSeconds = 1.0

    private let folder: String
    private let log: Log
    private let thread = WorkerThread(name: "reflex-haptics", priority: .background)
    /// The current vibrator as `LoadedEffects.packed`; 0 while there is none.
    private let published = Atomic<UInt64>(0)
    /// Set by the loop when a play found the device gone.
    private let lost = Atomic<Bool>(false)
    /// For tests and the log: how many effects the loop has played.
    private let playedCount = Atomic<Int>(0)

    public init(folder: String = "/dev/input", log: @escaping Log) {
        self.folder = folder
        self.log = log
    }

    public func start() -> Bool { thread.start { [self] in watch() } }
    public func stop() { thread.stop() }

    /// From the realtime loop: one write of one event, no lock, no allocation.
    public func play(_ effect: HapticEffect) {
        let word = published.load(ordering: .acquiring)
        guard word != 0 else { return }
        let result = LoadedEffects.play(effect, from: word)
        if result == 0 {
            playedCount.add(1, ordering: .relaxed)
        } else if result == -ENODEV {
            lost.store(true, ordering: .releasing)
            thread.wake()
        }
    }

    public var hasVibrator: Bool { published.load(ordering: .acquiring) != 0 }
    public var played: Int { playedCount.load(ordering: .relaxed) }

    // MARK: The haptics thread

    private func watch() {
        var current = findVibrator()
        if current == nil { log("haptics: no vibrator (nothing is felt); one that appears will be used") }
        publish(current)
        let monitor = HapticsDeviceMonitor()
        var retired: [(vibrator: Vibrator, at: Double)] = []
        var lastScan = monotonicSeconds()
        while !thread.isStopping {
            var descriptors = [pollfd(fd: thread.wakeDescriptor, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: monitor?.descriptor ?? -1, events: Int16(POLLIN), revents: 0)]
            // Without udev (a container), a vibrator that appears is found by looking again.
            let timeout: Int32 = !retired.isEmpty || (monitor == nil && current == nil) ? 1000 : -1
            _ = poll(&descriptors, 2, timeout)
            thread.drainWake()
            let now = monotonicSeconds()
            var gone = lost.exchange(false, ordering: .acquiringAndReleasing)
            var appeared: [String] = []
            monitor?.receive { action, node in
                if action == "remove", node == current?.path { gone = true }
                if action == "add" { appeared.append(node) }
            }
            if gone, let vibrator = current {
                log("haptics: the vibrator at \(vibrator.path) went away")
                current = nil
                publish(nil)
                retired.append((vibrator, now))
            }
            if current == nil, !appeared.isEmpty || (monitor == nil && now - lastScan >= 5) {
                current = monitor == nil ? findVibrator() : findVibrator(among: appeared)
                lastScan = now
                publish(current)
            }
            retired.removeAll { now - $0.at >= Haptics.retireSeconds }
        }
        publish(nil)
    }

    private func publish(_ vibrator: Vibrator?) {
        published.store(vibrator?.loaded.packed ?? 0, ordering: .releasing)
        // The Vibrator object must outlive its publication: kept by `watch` (current/retired).
    }

    /// The first vibrator among `nodes` (default: every event node in the folder).
    private func findVibrator(among nodes: [String]? = nil) -> Vibrator? {
        let candidates = nodes ?? eventNodes()
        for path in candidates where path.hasPrefix(folder + "/event") {
            do {
                guard let vibrator = try Vibrator.open(path: path) else { continue }
                log("haptics: vibrator “\(vibrator.name)” at \(path), \(HapticEffect.allCases.count) effects loaded")
                return vibrator
            } catch {
                log("haptics: \(path) can vibrate but cannot be used: \(error)")
            }
        }
        return nil
    }

    private func eventNodes() -> [String] {
        let nodes = namesInFolder(folder).filter { $0.hasPrefix("event") }.map { folder + "/" + $0 }
        // event2 before event10: the order the kernel made them in.
        return nodes.sorted { $0.count != $1.count ? $0.count < $1.count : $0 < $1 }
    }
}
