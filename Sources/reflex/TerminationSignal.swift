#if canImport(Glibc)
import Glibc
#endif

/// The signals the running camera answers: SIGTERM (systemd stopping the unit) and SIGINT
/// (Ctrl-C) end it cleanly; SIGUSR1 asks for the display's frame statistics. They are
/// blocked first and then taken with sigtimedwait, so no handler runs at an arbitrary point
/// of the program; call `blockTerminationSignals` before any thread starts.
enum TerminationSignal {
    enum Received: Equatable {
        case terminate(String)
        case statistics
        case timeout
    }

    static func blockTerminationSignals() {
        var signals = handledSet()
        pthread_sigmask(SIG_BLOCK, &signals, nil)
    }

    /// Sleeps until one of them arrives, or `seconds` pass.
    static func wait(seconds: Double) -> Received {
        var signals = handledSet()
        let whole = Int(seconds)
        var timeout = timespec(tv_sec: whole, tv_nsec: Int((seconds - Double(whole)) * 1e9))
        let received = sigtimedwait(&signals, nil, &timeout)
        switch received {
        case SIGTERM: return .terminate("SIGTERM")
        case SIGINT: return .terminate("SIGINT")
        case SIGUSR1: return .statistics
        default: return .timeout
        }
    }

    /// Who this process runs as, for the log: "reflex (uid 999)".
    static func userDescription() -> String {
        let uid = getuid()
        let name = getpwuid(uid).map { String(cString: $0.pointee.pw_name) } ?? "?"
        return "\(name) (uid \(uid))"
    }

    private static func handledSet() -> sigset_t {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGTERM)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGUSR1)
        return signals
    }
}
