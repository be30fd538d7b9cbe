/// What reading an update file told: its manifest, verified against the camera's keyring, or
/// why it could not be trusted or read.
public enum BundleReading: Sendable, Equatable {
    case read(UpdateBundle)
    /// The signature does not verify against the keyring: another maker's key, or none.
    case signatureRejected(String)
    /// Not a bundle, cut short or damaged (RAUC's words).
    case unreadable(String)

    /// What `rauc info --output-format=json` printed, standard output and error together,
    /// and how it exited: the manifest on its one JSON line, else RAUC's own reason.
    public static func fromRAUCInfo(exitStatus: Int32?, output: String) -> BundleReading {
        let lines = output.split(whereSeparator: \.isNewline).map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
        // The JSON is on standard output, which RAUC writes at its end without a newline: a
        // line of standard error may follow it on the same line of the shared pipe.
        if exitStatus == 0, let line = lines.first(where: { $0.hasPrefix("{") }),
           let end = line.lastIndex(of: "}"), let bundle = UpdateBundle(raucInfoJSON: String(line[...end])) {
            return .read(bundle)
        }
        // RAUC's progress lines ("rauc-Message: …") say nothing of why; the last other line does.
        let reasons = lines.filter { !$0.hasPrefix("rauc-Message") && !$0.hasPrefix("{") }
        let reason = reasons.last.map(String.init) ?? (exitStatus == nil ? "rauc info did not finish" : "rauc info said nothing")
        if reasons.contains(where: { $0.lowercased().contains("signature verification failed") }) {
            return .signatureRejected(reason)
        }
        return .unreadable(reason)
    }
}
