import CLinux
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A thread of the camera's own: a real pthread (the realtime loop and the background
/// workers must not share Swift's cooperative pool) with a name, a scheduling class, a
/// wake-up and a stop. Every thread of the running camera is one of these.
///
/// The body runs once and owns the thread; it sleeps in `waitForWake` (or polls
/// `wakeDescriptor` with its own files), and returns when `isStopping`. `stop()` asks, wakes
/// and joins.
public final class WorkerThread: @unchecked Sendable {
    public enum Priority: Sendable, Equatable {
        /// SCHED_FIFO at this priority (needs root, CAP_SYS_NICE or RLIMIT_RTPRIO).
        case realtime(Int32)
        /// As any other program's thread (SCHED_OTHER even when started by a realtime thread,
        /// whose class a new thread would otherwise inherit).
        case ordinary
        /// Ordinary scheduling at this nice value (1 to 18): below the ordinary threads (the
        /// sensor, the movie), which it yields to whenever they have work, above `background`.
        case yielding(nice: Int32)
        /// Nice 19 and the idle I/O class: work that must never take time from the loop.
        case background
    }

    /// The name `top -H` and /proc show (15 characters at most).
    public let name: String
    public let priority: Priority
    private let wakeUp = EventSignal()
    private let stopRequested = Atomic<Bool>(false)
    private var handle: pthread_t?
    /// What the scheduler said to the priority asked for: 0, or the error number.
    private let schedulingResult = Atomic<Int32>(-1)

    public init(name: String, priority: Priority = .ordinary) {
        // (Cut to the kernel's 15 characters, as it would: keep names shorter, so two differ.)
        self.name = String(name.prefix(15))
        self.priority = priority
    }

    /// Starts `body` on the thread; false if the system could not make one. Whatever `body`
    /// captures lives until it returns.
    @discardableResult
    public func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        guard handle == nil else { return true }
        stopRequested.store(false, ordering: .releasing)
        final class Work: @unchecked Sendable {
            let thread: WorkerThread
            let body: @Sendable () -> Void
            init(_ thread: WorkerThread, _ body: @escaping @Sendable () -> Void) { (self.thread, self.body) = (thread, body) }
        }
        let context = Unmanaged.passRetained(Work(self, body))
        var made = pthread_t()
        guard pthread_create(&made, nil, { context in
            let work = Unmanaged<Work>.fromOpaque(context!).takeRetainedValue()
            work.thread.enterPriority()
            work.body()
            return nil
        }, context.toOpaque()) == 0 else {
            context.release()
            return false
        }
        handle = made
        return true
    }

    /// Runs on the new thread before its body: its name and its scheduling.
    private func enterPriority() {
        _ = reflex_name_thread(name)
        schedulingResult.store(priority.applyToCallingThread(), ordering: .releasing)
    }

    /// Asks the body to return, wakes it, and waits until it has. Safe to call twice.
    public func stop() {
        guard let handle else { return }
        stopRequested.store(true, ordering: .releasing)
        wakeUp.signal()
        pthread_join(handle, nil)
        self.handle = nil
    }

    public var isRunning: Bool { handle != nil }
    public var isStopping: Bool { stopRequested.load(ordering: .acquiring) }

    /// Wakes the body (from any thread; never blocks).
    /// Names the calling thread (at most 15 characters show), for a thread another library
    /// made (SwiftNIO's event loop) to be told apart in `top -H` and the log.
    public static func nameCallingThread(_ name: String) { _ = reflex_name_thread(name) }

    public func wake() { wakeUp.signal() }

    /// For a body that polls its own files too: readable when woken.
    public var wakeDescriptor: Int32 { wakeUp.descriptor }
    public func drainWake() { wakeUp.drain() }

    /// Sleeps until woken (or `milliseconds` pass; -1: no limit).
    public func waitForWake(milliseconds: Int32 = -1) { wakeUp.wait(milliseconds: milliseconds) }

    /// Sleeps `seconds` unless stopped first; false if stopped.
    public func pause(seconds: Double) -> Bool {
        let until = monotonicSeconds() + seconds
        while !isStopping {
            let left = until - monotonicSeconds()
            if left <= 0 { return true }
            waitForWake(milliseconds: Int32(max(1, (left * 1000).rounded(.up))))
        }
        return false
    }

    /// How the thread is scheduled, for the log: "SCHED_FIFO 40", or why it is not.
    public var scheduling: String {
        let result = schedulingResult.load(ordering: .acquiring)
        return result < 0 ? "not started" : priority.describe(result: result)
    }
}

extension WorkerThread.Priority {
    /// Puts the calling thread in this class (a benchmark's own thread, standing in for the
    /// loop's); 0, or the error number.
    public func applyToCallingThread() -> Int32 {
        switch self {
        case .realtime(let level): reflex_make_thread_realtime(level)
        case .background: reflex_make_thread_background() == 0 ? 0 : errno
        case .ordinary: reflex_leave_realtime()
        case .yielding(let nice): reflex_set_thread_nice(nice)
        }
    }

    /// What `applyToCallingThread` returning `result` means, for the log.
    public func describe(result: Int32) -> String {
        switch self {
        case .ordinary: "ordinary scheduling"
        case .yielding(let nice): result == 0 ? "ordinary scheduling at nice \(nice)"
            : "ordinary scheduling (nice \(nice) refused: \(String(cString: strerror(result))))"
        case .background: result == 0 ? "background (nice 19, idle I/O)" : "ordinary scheduling (background refused)"
        case .realtime(let level):
            result == 0 ? "SCHED_FIFO \(level)" : "ordinary scheduling (SCHED_FIFO refused: \(String(cString: strerror(result))))"
        }
    }
}
