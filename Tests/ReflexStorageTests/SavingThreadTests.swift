import CLinux
import ReflexSystem
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The thread that saves photos yields to everything else: nice 19 for the CPU and the idle
/// class for I/O, which any user may ask for. (Not SCHED_IDLE: a busy machine starved it,
/// and no photo was saved while the cores were taken.)
@Suite struct SavingThreadTests {
    @Test func aBackgroundThreadRunsOnlyWhenNothingElseWants() {
        let seen = Mutex<(policy: Int32, nice: Int32, ioPriority: Int32)?>(nil)
        let thread = WorkerThread(name: "test-saver", priority: .background)
        #expect(thread.start {
            let io = reflex_thread_io_priority()
            errno = 0
            let nice = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
            seen.withLock { $0 = (sched_getscheduler(0), nice, io) }
        })
        thread.stop()
        let result = seen.withLock { $0 }
        #expect(result?.policy == SCHED_OTHER, "an ordinary thread")
        #expect(result?.nice == 19, "at the lowest priority")
        #expect(result.map { $0.ioPriority >> 13 } == 3, "the idle I/O class")
        #expect(thread.scheduling == "background (nice 19, idle I/O)")
    }

    /// The analysis's class: below the camera's streams, above the saving.
    @Test func aYieldingThreadRunsAtItsNiceValue() {
        let seen = Mutex<(policy: Int32, nice: Int32)?>(nil)
        let thread = WorkerThread(name: "test-analysis", priority: .yielding(nice: 5))
        #expect(thread.start {
            errno = 0
            let nice = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
            seen.withLock { $0 = (sched_getscheduler(0), nice) }
        })
        thread.stop()
        let result = seen.withLock { $0 }
        #expect(result?.policy == SCHED_OTHER && result?.nice == 5)
        #expect(thread.scheduling == "ordinary scheduling at nice 5")
    }

    /// A thread inherits its creator's scheduling class: the photo thread's helpers, started
    /// from a thread the realtime loop started, ran at SCHED_FIFO 40 beside the loop and held
    /// its core for 300 ms. Each class below the loop's leaves it.
    @Test(arguments: [WorkerThread.Priority.background, .yielding(nice: 7), .ordinary])
    func aThreadStartedByARealtimeThreadLeavesItsClass(priority: WorkerThread.Priority) throws {
        let seen = Mutex<(outer: Int32, inner: Int32)?>(nil)
        let outer = WorkerThread(name: "test-loop", priority: .realtime(10))
        #expect(outer.start {
            let inner = WorkerThread(name: "test-helper", priority: priority)
            let policy = Mutex<Int32>(-1)
            _ = inner.start { policy.withLock { $0 = sched_getscheduler(0) } }
            inner.stop()
            seen.withLock { $0 = (sched_getscheduler(0), policy.withLock { $0 }) }
        })
        outer.stop()
        let result = try #require(seen.withLock { $0 })
        // (Without the right to SCHED_FIFO the question does not arise; CI runs as root.)
        if outer.scheduling == "SCHED_FIFO 10" { #expect(result.outer == SCHED_FIFO) }
        #expect(result.inner == SCHED_OTHER, "\(priority) started by a SCHED_FIFO thread")
    }
}
