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
}
