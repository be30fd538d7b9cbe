import ReflexHardware

/// An installation by RAUC's service, followed to its end: the bundle goes into the slot not
/// running, which becomes the one booted next; the running system is untouched until then.
public enum UpdateInstaller {
    /// How an installation ended.
    public enum Outcome: Sendable, Equatable {
        case installed
        /// RAUC's reason (its LastError): nothing was switched.
        case failed(String)
    }

    /// Installs the bundle at `path`, handing each new progress RAUC reports to `report`
    /// (the screen's bar, the shell's lines). Waits as long as RAUC works: its Completed
    /// signal ends the wait; a service gone from the bus is an error, and one that is idle
    /// again without having sent Completed (it died and D-Bus started a new one) a failure.
    public static func install(_ path: String, with rauc: RAUCService,
                               report: (RAUCService.Progress) -> Void) throws(RAUCService.Failure) -> Outcome {
        try rauc.install(path)
        var shown: RAUCService.Progress?
        var idleWithoutEnd = 0
        while true {
            let result = try rauc.waitForCompletion(seconds: 0.25)
            // The last progress too: RAUC's final message ("Installing done.") comes with it.
            let progress = try rauc.progress()
            if progress != shown {
                report(progress)
                shown = progress
            }
            if let result {
                if result == 0 { return .installed }
                let reason = (try? rauc.lastError()) ?? ""
                return .failed(reason.isEmpty ? "RAUC ended with \(result)" : reason)
            }
            // RAUC sends Completed before it says "idle", and one sender's messages arrive in
            // order: idle on two reads in a row with no Completed between means none will come.
            idleWithoutEnd = try rauc.operation() == "idle" ? idleWithoutEnd + 1 : 0
            if idleWithoutEnd >= 2 { return .failed("RAUC's service stopped before it finished installing") }
        }
    }
}
