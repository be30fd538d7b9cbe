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
    /// signal ends the wait, and a service that goes away is an error, not a hang.
    public static func install(_ path: String, with rauc: RAUCService,
                               report: (RAUCService.Progress) -> Void) throws(RAUCService.Failure) -> Outcome {
        try rauc.install(path)
        var shown: RAUCService.Progress?
        while true {
            let result = try rauc.waitForCompletion(seconds: 0.25)
            // The last progress too: RAUC's final message ("Installing done.") comes with it.
            if let progress = try? rauc.progress(), progress != shown {
                report(progress)
                shown = progress
            }
            guard let result else { continue }
            if result == 0 { return .installed }
            let reason = (try? rauc.lastError()) ?? ""
            return .failed(reason.isEmpty ? "RAUC ended with \(result)" : reason)
        }
    }
}
