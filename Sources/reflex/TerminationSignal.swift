#if canImport(Glibc)
import Glibc
#endif

/// SIGTERM (systemd stopping the unit) and SIGINT (Ctrl-C) end the camera cleanly.
/// They are blocked first and then taken with sigwait, so no handler runs at an arbitrary
/// point of the program; call `blockTerminationSignals` before any thread starts.
enum TerminationSignal {
    static func blockTerminationSignals() {
        var signals = terminationSet()
        pthread_sigmask(SIG_BLOCK, &signals, nil)
    }

    /// Sleeps until one of them arrives; returns its name.
    static func wait() -> String {
        var signals = terminationSet()
        var received: Int32 = 0
        sigwait(&signals, &received)
        return received == SIGTERM ? "SIGTERM" : "SIGINT"
    }

    /// Who this process runs as, for the log: "reflex (uid 999)".
    static func userDescription() -> String {
        let uid = getuid()
        let name = getpwuid(uid).map { String(cString: $0.pointee.pw_name) } ?? "?"
        return "\(name) (uid \(uid))"
    }

    private static func terminationSet() -> sigset_t {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGTERM)
        sigaddset(&signals, SIGINT)
        return signals
    }
}
