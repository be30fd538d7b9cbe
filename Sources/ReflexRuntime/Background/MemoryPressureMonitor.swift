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
/// the kernel command line). Anyone may set one whose window is a multiple of 2 s, as these
/// are, from Linux 6.5 (and Debian 12's 6.1); older kernels want CAP_SYS_RESOURCE, which the
/// camera's service does not have: there the thread reads the file's totals each second
/// instead and applies the same thresholds (`MemoryStallWindow`). Without PSI the camera
/// runs on its memory budget alone, and says so.
public final class MemoryPressureMonitor: @unchecked Sendable {
    public typealias Log = @Sendable (String) -> Void

    public typealias Trigger = MemoryPressureTrigger

    public let path: String
    private let triggers: [Trigger]
    private let log: Log
    private let thread = WorkerThread(name: "reflex-memory", priority: .ordinary)
    private let current = Atomic<Int>(MemoryPressureLevel.normal.rawValue)
    /// The triggers' descriptors (the monitor's thread polls them; closed at stop).
    private var descriptors: [Int32] = []
    private var state = MemoryPressureState()

    /// Whether the file's totals are read each second (where triggers are refused, or asked
    /// by `sampling`) rather than the kernel's triggers waited on.
    public private(set) var isSampling: Bool
    private var window: MemoryStallWindow

    /// `sampling`: read the totals even where triggers could be set (how a test run as root
    /// tries what the sealed service does).
    public init(path: String = "/proc/pressure/memory", triggers: [Trigger] = MemoryPressureTrigger.camera,
                sampling: Bool = false, log: @escaping Log) {
        self.path = path
        self.triggers = triggers
        self.isSampling = sampling
        self.window = MemoryStallWindow(triggers: triggers)
        self.log = log
    }

    deinit { stop() }

    /// The level now (any thread).
    public var level: MemoryPressureLevel { MemoryPressureLevel(rawValue: current.load(ordering: .acquiring)) ?? .normal }

    /// Sets the triggers (or, where the kernel refuses them for want of privilege, samples the
    /// file) and starts watching; false (said in the log) where there is no pressure to watch.
    @discardableResult
    public func start() -> Bool {
        guard descriptors.isEmpty else { return true }
        let asked = isSampling
        if !isSampling {
            for trigger in triggers {
                let descriptor = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
                guard descriptor >= 0 else {
                    let error = errno
                    // Opening for writing is itself refused to an unprivileged user on some kernels.
                    if (error == EACCES || error == EPERM) && readTotals() != nil { isSampling = true; break }
                    return gaveUp(error, opening: true)
                }
                var text = Array(trigger.text.utf8)
                text.append(0)
                guard write(descriptor, text, text.count) == text.count else {
                    let error = errno
                    close(descriptor)
                    if error == EACCES || error == EPERM { isSampling = true; break }
                    return gaveUp(error, opening: false)
                }
                descriptors.append(descriptor)
            }
        }
        if isSampling {
            closeTriggers()
            // The first reading is the baseline the next second's is measured from.
            guard let totals = readTotals(), let first = MemoryStallWindow.Sample(parsing: totals, at: monotonicSeconds()) else {
                return gaveUp(errno == 0 ? ENOENT : errno, opening: true)
            }
            _ = window.add(first)
        }
        guard thread.start({ self.run() }) else { return gaveUp(EAGAIN, opening: false) }
        let how = isSampling ? "its totals each second against " : ""
        log("memory: watching pressure (\(path): " + how + triggers.map { "\($0.level) at \($0.text)" }.joined(separator: ", ")
            + (isSampling && !asked ? "; the kernel takes no trigger from this user" : "") + ")")
        return true
    }

    public func stop() {
        thread.stop()
        closeTriggers()
    }

    private func closeTriggers() {
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
        closeTriggers()
        let why = switch error {
        case ENOENT: "the kernel has no PSI (CONFIG_PSI, or psi=1 on its command line where it is off by default)"
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
            if isSampling {
                guard let totals = readTotals() else {
                    log("memory: the pressure file cannot be read any more; pressure not watched any more")
                    return
                }
                if let level = window.add(MemoryStallWindow.Sample(parsing: totals, at: now) ?? .init(time: now, some: 0, full: 0)) {
                    fired(level, at: now)
                }
            }
            for (index, trigger) in triggers.enumerated() where index < polled.count - 1 && polled[index].revents & Int16(POLLPRI) != 0 {
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
        (readTotals() ?? "").split(separator: "\n").joined(separator: "; ")
    }

    /// The pressure file's text (two short lines), or nil where it cannot be read.
    private func readTotals() -> String? {
        guard let file = try? FileDescriptor(opening: path, O_RDONLY) else { return nil }
        var bytes = [UInt8](repeating: 0, count: 256)
        guard let count = bytes.withUnsafeMutableBytes({ try? file.read(into: $0.baseAddress!, count: $0.count) }) else { return nil }
        return String(decoding: bytes[0..<count], as: UTF8.self)
    }
}
