import ReflexCore
import ReflexSystem
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Watches the kernel's memory pressure (PSI, /proc/pressure/memory) with two triggers, one a
/// level: the kernel wakes this thread when tasks stalled on memory for longer than a
/// trigger's threshold within its window, and the level goes up at once; it steps down after
/// a quiet spell (`MemoryPressureState`). The sensor and photo threads read `level` (one
/// atomic load) and give memory up; nothing here touches them.
///
/// A trigger needs PSI in the kernel (Debian's is built with it off by default: `psi=1` on
/// the kernel command line) and, before Linux 6.5, CAP_SYS_RESOURCE (from 6.5 anyone may
/// set one whose window is a multiple of 2 s, as these are). Without either the camera runs
/// on its memory budget alone, and says so.
public final class MemoryPressureMonitor: @unchecked Sendable {
    public typealias Log = @Sendable (String) -> Void

    /// A trigger: `kind` stall ("some": at least one task waited; "full": all did) of more
    /// than `stallMicroseconds` within `windowMicroseconds`.
    public struct Trigger: Sendable, Equatable {
        public let level: MemoryPressureLevel
        public let kind: String
        public let stallMicroseconds: Int
        public let windowMicroseconds: Int

        public init(level: MemoryPressureLevel, kind: String, stallMicroseconds: Int, windowMicroseconds: Int) {
            (self.level, self.kind, self.stallMicroseconds, self.windowMicroseconds)
                = (level, kind, stallMicroseconds, windowMicroseconds)
        }

        /// What is written to the pressure file.
        public var text: String { "\(kind) \(stallMicroseconds) \(windowMicroseconds)" }
    }

    /// Moderate: some task stalled 10% of two seconds; severe: 40% (lmkd's and systemd-oomd's
    /// kind of thresholds, in the 2 s windows an unprivileged trigger may have).
    public static let triggers = [
        Trigger(level: .moderate, kind: "some", stallMicroseconds: 200_000, windowMicroseconds: 2_000_000),
        Trigger(level: .severe, kind: "some", stallMicroseconds: 800_000, windowMicroseconds: 2_000_000),
    ]

    public let path: String
    private let triggers: [Trigger]
    private let log: Log
    private let thread = WorkerThread(name: "reflex-memory", priority: .ordinary)
    private let current = Atomic<Int>(MemoryPressureLevel.normal.rawValue)
    /// The triggers' descriptors (the monitor's thread polls them; closed at stop).
    private var descriptors: [Int32] = []
    private var state = MemoryPressureState()

    public init(path: String = "/proc/pressure/memory", triggers: [Trigger] = MemoryPressureMonitor.triggers,
                log: @escaping Log) {
        self.path = path
        self.triggers = triggers
        self.log = log
    }

    deinit { stop() }

    /// The level now (any thread).
    public var level: MemoryPressureLevel { MemoryPressureLevel(rawValue: current.load(ordering: .acquiring)) ?? .normal }

    /// Sets the triggers and starts watching; false (said in the log) where the kernel will
    /// not take them.
    @discardableResult
    public func start() -> Bool {
        guard descriptors.isEmpty else { return true }
        for trigger in triggers {
            let descriptor = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
            guard descriptor >= 0 else {
                return gaveUp(errno, opening: true)
            }
            var text = Array(trigger.text.utf8)
            text.append(0)
            guard write(descriptor, text, text.count) == text.count else {
                let error = errno
                close(descriptor)
                return gaveUp(error, opening: false)
            }
            descriptors.append(descriptor)
        }
        guard thread.start({ self.run() }) else { return gaveUp(EAGAIN, opening: false) }
        log("memory: watching pressure (\(path): " + triggers.map { "\($0.level) at \($0.text)" }.joined(separator: ", ") + ")")
        return true
    }

    public func stop() {
        thread.stop()
        for descriptor in descriptors { close(descriptor) }
        descriptors.removeAll()
    }

    /// A trigger fired (the monitor's thread; also how a test stands in for the kernel).
    public func fired(_ level: MemoryPressureLevel, at time: Double = monotonicSeconds()) {
        let before = state.level
        state.fired(level, at: time)
        publish(from: before)
    }

    private func gaveUp(_ error: Int32, opening: Bool) -> Bool {
        for descriptor in descriptors { close(descriptor) }
        descriptors.removeAll()
        let why = switch error {
        case ENOENT: "the kernel has no PSI (CONFIG_PSI, or psi=1 on its command line where it is off by default)"
        case EPERM, EACCES: "a trigger needs CAP_SYS_RESOURCE before Linux 6.5"
        default: String(cString: strerror(error))
        }
        log("memory: pressure not watched: \(opening ? "cannot open" : "cannot set a trigger on") \(path): \(why); "
            + "photos keep to the memory budget alone")
        return false
    }

    private func run() {
        var polled = descriptors.map { pollfd(fd: $0, events: Int16(POLLPRI), revents: 0) }
        polled.append(pollfd(fd: thread.wakeDescriptor, events: Int16(POLLIN), revents: 0))
        while !thread.isStopping {
            for i in polled.indices { polled[i].revents = 0 }
            _ = poll(&polled, nfds_t(polled.count), 1000)
            if polled[polled.count - 1].revents & Int16(POLLIN) != 0 { thread.drainWake() }
            let now = monotonicSeconds()
            for (index, trigger) in triggers.enumerated() where polled[index].revents & Int16(POLLPRI) != 0 {
                fired(trigger.level, at: now)
            }
            if polled.dropLast().contains(where: { $0.revents & Int16(POLLERR) != 0 }) {
                log("memory: the pressure file went away; pressure not watched any more")
                return
            }
            let before = state.level
            if state.update(at: now) { publish(from: before) }
        }
    }

    private func publish(from before: MemoryPressureLevel) {
        guard state.level != before else { return }
        current.store(state.level.rawValue, ordering: .releasing)
        log("memory: pressure \(state.level) (was \(before))" + (state.level > before ? ": " + pressureNow() : ""))
    }

    /// The pressure file's averages, for the log ("some avg10=12.34 …").
    private func pressureNow() -> String {
        guard let file = try? FileDescriptor(opening: path, O_RDONLY) else { return "" }
        var bytes = [UInt8](repeating: 0, count: 256)
        let count = bytes.withUnsafeMutableBytes { (try? file.read(into: $0.baseAddress!, count: $0.count)) ?? 0 }
        return String(decoding: bytes[0..<count], as: UTF8.self).split(separator: "\n").joined(separator: "; ")
    }
}
