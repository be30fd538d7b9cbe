/// Why the camera will not install an update file: said on its screen and by `reflex update`,
/// and nothing on the camera changes.
public enum UpdateRefusal: Sendable, Equatable, CustomStringConvertible {
    /// Signed by a key the camera's keyring does not hold (another maker's, or a forgery).
    case signedByAnotherKey(String)
    /// Made for another camera model (RAUC's compatible).
    case forAnotherCamera(bundle: String, camera: String)
    /// An older release than the one running (installable only when forced from the shell).
    case older(bundle: FirmwareVersion, running: FirmwareVersion)
    /// The very version running now.
    case alreadyRunning(FirmwareVersion)
    /// Not a bundle, cut short or damaged.
    case damaged(String)
    /// The manifest's version is no MAJOR.MINOR.PATCH.
    case unknownVersion(String)

    /// The sentence on the camera's screen.
    public var description: String {
        switch self {
        case .signedByAnotherKey: "Not installed: the update is not signed by this camera's maker."
        case .forAnotherCamera(let bundle, _): "Not installed: the update is for another camera (\(bundle))."
        case .older(let bundle, let running):
            "Not installed: Reflex \(bundle.release) is older than the running \(running.release)."
        case .alreadyRunning(let version): "Reflex \(version.release) is already running."
        case .damaged: "Not installed: the update file is damaged or incomplete."
        case .unknownVersion(let text): "Not installed: the update's version \"\(text.prefix(40))\" is not understood."
        }
    }

    /// What RAUC or the check said, for the log and the shell (the screen keeps it short).
    public var detail: String {
        switch self {
        case .signedByAnotherKey(let reason), .damaged(let reason): reason
        case .forAnotherCamera(let bundle, let camera): "the bundle's compatible is \(bundle), this camera's \(camera)"
        case .older(let bundle, let running): "bundle \(bundle), running \(running)"
        case .alreadyRunning(let version): "bundle and running system are both \(version)"
        case .unknownVersion(let text): "version \(text)"
        }
    }

    /// Whether the shell's `--force` may install despite it: a version choice, never trust.
    public var isOverridable: Bool {
        switch self {
        case .older, .alreadyRunning: true
        default: false
        }
    }
}
