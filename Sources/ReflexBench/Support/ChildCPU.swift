#if canImport(Glibc)
import Glibc
#endif

/// CPU time (user + system) the child processes that `body` ran and waited for used.
enum ChildCPU {
    static func seconds(_ body: () -> Void) -> Double {
        var before = rusage(), after = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &before)
        body()
        getrusage(RUSAGE_CHILDREN.rawValue, &after)
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(after.ru_utime) + seconds(after.ru_stime) - seconds(before.ru_utime) - seconds(before.ru_stime)
    }

    /// CPU time (user + system) this process has used so far, all its threads (an encoder's
    /// own threads too).
    static func ownSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }
}
