/// What the shutter saves (docs/camera.md, Photos: the formats and Enhanced RAW).
public enum CaptureFormat: String, Sendable, CaseIterable {
    case jpeg
    case raw
    case rawPlusJPEG = "raw+jpeg"
    /// A DNG merged from frames of the zero-lag ring: less noise, highlights kept.
    case enhancedRaw = "enhanced-raw"
    case enhancedRawPlusJPEG = "enhanced-raw+jpeg"

    /// The on-screen indicator.
    public var label: String {
        switch self {
        case .jpeg: "JPEG"
        case .raw: "RAW"
        case .rawPlusJPEG: "RAW+JPEG"
        case .enhancedRaw: "ENHANCED RAW"
        case .enhancedRawPlusJPEG: "ENHANCED RAW+JPEG"
        }
    }

    public var savesRaw: Bool { self != .jpeg }
    public var savesJPEG: Bool { self == .jpeg || self == .rawPlusJPEG || self == .enhancedRawPlusJPEG }
    /// Whether the raw is merged from several frames.
    public var merges: Bool { self == .enhancedRaw || self == .enhancedRawPlusJPEG }

    /// What a camera that cannot merge offers instead: the plain format of the same files.
    public var withoutMerge: CaptureFormat {
        switch self {
        case .enhancedRaw: .raw
        case .enhancedRawPlusJPEG: .rawPlusJPEG
        default: self
        }
    }
}
