/// What the shutter saves (seed 002 story 4.3).
public enum CaptureFormat: String, Sendable, CaseIterable {
    case jpeg
    case raw
    case rawPlusJPEG = "raw+jpeg"

    /// The on-screen indicator.
    public var label: String {
        switch self {
        case .jpeg: "JPEG"
        case .raw: "RAW"
        case .rawPlusJPEG: "RAW+JPEG"
        }
    }

    public var savesRaw: Bool { self != .jpeg }
}
