/// Where the camera's picture goes.
public enum DisplayChoice: Equatable, Sendable {
    /// The DRM/KMS panel.
    case drm
    /// The headless display, its picture saved as `frame.png` in this folder.
    case png(String)
    case none

    /// As the command line says it: `drm`, `png:DIR` or `none`.
    public init?(argument: String) {
        switch argument {
        case "drm": self = .drm
        case "none": self = .none
        default:
            guard argument.hasPrefix("png:"), argument.count > 4 else { return nil }
            self = .png(String(argument.dropFirst(4)))
        }
    }

    public static var allValueStrings: [String] { ["drm", "png:DIR", "none"] }
}
