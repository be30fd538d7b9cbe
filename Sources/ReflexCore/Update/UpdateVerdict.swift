/// What the camera does with an update file it found: offer it, or refuse it with a reason.
public enum UpdateVerdict: Sendable, Equatable {
    case offer(running: FirmwareVersion, bundle: FirmwareVersion)
    case refused(UpdateRefusal)

    /// Decides for a file read as `reading`, on a camera whose RAUC compatible is `compatible`
    /// running `running`. `forced` (the shell's `--force`) lets an older or the same version
    /// through; nothing lets a bundle for another camera or signed by another key through.
    public static func decide(_ reading: BundleReading, compatible: String, running: FirmwareVersion,
                              forced: Bool = false) -> UpdateVerdict {
        let bundle: UpdateBundle
        switch reading {
        case .read(let read): bundle = read
        case .signatureRejected(let reason): return .refused(.signedByAnotherKey(reason))
        case .unreadable(let reason): return .refused(.damaged(reason))
        }
        guard bundle.compatible == compatible else {
            return .refused(.forAnotherCamera(bundle: bundle.compatible, camera: compatible))
        }
        guard let version = FirmwareVersion(bundle.version) else { return .refused(.unknownVersion(bundle.version)) }
        // Two builds of one release are told apart by their build (a development camera takes
        // the next commit's bundle); the very same version is already there.
        let refusal: UpdateRefusal? =
            version.isOlder(than: running) ? .older(bundle: version, running: running)
            : version == running ? .alreadyRunning(running)
            : nil
        if let refusal, !forced { return .refused(refusal) }
        return .offer(running: running, bundle: version)
    }

    /// The camera's question for an offer ("Update Reflex 0.2.0 → 0.3.0? The camera
    /// restarts."), its refusal's sentence otherwise.
    public var question: String {
        switch self {
        case .offer(let running, let bundle):
            let from = running.release, to = bundle.isSameRelease(as: running) ? bundle.description : bundle.release
            return "Update Reflex \(from) → \(to)? The camera restarts."
        case .refused(let refusal): return refusal.description
        }
    }
}
