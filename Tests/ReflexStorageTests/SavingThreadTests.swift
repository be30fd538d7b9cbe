import CLinux
import ReflexSystem
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The thread that saves photos takes no time from anything else: SCHED_IDLE for the CPU and
/// the idle class for I/O, which any user may ask for.
@Suite struct SavingThreadTests {
    @Test func aBackgroundThreadRunsOnlyWhenNothingElseWants() {
        let seen = Mutex<(policy: Int32, ioPriority: Int32)?>(nil)
        let thread = WorkerThread(name: "test-saver", priority: .background)
        #expect(thread.start {
            let io = reflex_thread_io_priority()
            seen.withLock { $0 = (sched_getscheduler(0), io) }
        })
        thread.stop()
        let result = seen.withLock { $0 }
        #expect(result?.policy == 5, "SCHED_IDLE")
        #expect(result.map { $0.ioPriority >> 13 } == 3, "the idle I/O class")
        #expect(thread.scheduling == "background (SCHED_IDLE, idle I/O)")
    }
}
