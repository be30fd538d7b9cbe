/// A PSI trigger: `kind` stall ("some": at least one task waited on memory; "full": all did)
/// of more than `stallMicroseconds` within `windowMicroseconds`, and the level it raises.
/// Written to /proc/pressure/memory where the kernel lets the camera set triggers; where it
/// does not, `MemoryStallWindow` applies the same thresholds to the file's running totals.
public struct MemoryPressureTrigger: Sendable, Equatable {
    public let level: MemoryPressureLevel
    public let kind: String
    public let stallMicroseconds: Int
    public let windowMicroseconds: Int

    public init(level: MemoryPressureLevel, kind: String, stallMicroseconds: Int, windowMicroseconds: Int) {
        (self.level, self.kind, self.stallMicroseconds, self.windowMicroseconds)
            = (level, kind, stallMicroseconds, windowMicroseconds)
    }

    /// Moderate: some task stalled 10% of two seconds; severe: 40% (lmkd's and systemd-oomd's
    /// kind of thresholds, in the 2 s windows an unprivileged trigger may have).
    public static let camera = [
        MemoryPressureTrigger(level: .moderate, kind: "some", stallMicroseconds: 200_000, windowMicroseconds: 2_000_000),
        MemoryPressureTrigger(level: .severe, kind: "some", stallMicroseconds: 800_000, windowMicroseconds: 2_000_000),
    ]

    /// What is written to the pressure file.
    public var text: String { "\(kind) \(stallMicroseconds) \(windowMicroseconds)" }
}
