/// The storage warning to show (or none): `StoragePolicy.advice`.
public struct StorageAdvice: Sendable, Equatable {
    public enum Level: Int, Sendable, Comparable {
        case plenty, low, critical, full
        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
    }

    public let level: Level
    /// Photos of `format` that still fit.
    public let shotsLeft: Int
    public let format: CaptureFormat

    public init(level: Level, shotsLeft: Int, format: CaptureFormat) {
        (self.level, self.shotsLeft, self.format) = (level, shotsLeft, format)
    }

    /// The top bar's words: "Low storage · 37 RAW left"; nil while there is plenty.
    public var text: String? {
        switch level {
        case .plenty: nil
        case .low: "Low storage · \(shotsLeft) \(format.label) left"
        case .critical: "Storage almost full · \(shotsLeft) \(format.label) left"
        case .full: "Storage full"
        }
    }

    /// Said at a press when the card is nearly or quite full (the prominent warning).
    public var atPress: String? {
        switch level {
        case .plenty, .low: nil
        case .critical: "Storage almost full: \(shotsLeft) \(format.label) left"
        case .full: StorageAdvice.fullTitle
        }
    }

    /// A save that failed for space: what happened, and what helps.
    public static let fullTitle = "Storage full – photo not saved"
    /// A save refused by a read-only card: its lock switch, or the kernel's remount after
    /// finding its file system damaged (errors=remount-ro).
    public static let readOnlyTitle = "Card is read-only – photo not saved"
    public static let readOnlySuggestion = "check the card's lock, or use another"
    public static func fullSuggestion(format: CaptureFormat) -> String {
        format.savesRaw ? "free space, or switch to JPEG" : "free space on the card"
    }
}
