/// The pressure level over time: a PSI trigger firing raises it at once; it steps down one
/// level after a quiet spell (no trigger of that level or above), so memory given up is not
/// taken back while the pressure comes and goes.
public struct MemoryPressureState: Sendable, Equatable {
    /// Seconds without a trigger before a level steps down.
    public static let quietSeconds = 10.0

    public private(set) var level = MemoryPressureLevel.normal
    private var lastEvent = -Double.infinity

    public init() {}

    /// A trigger of `level` fired at `time`.
    public mutating func fired(_ fired: MemoryPressureLevel, at time: Double) {
        if fired >= level {
            level = max(level, fired)
            lastEvent = time
        }
    }

    /// The level at `time` (stepping down where it has been quiet); true if it changed.
    @discardableResult
    public mutating func update(at time: Double) -> Bool {
        guard level != .normal, time - lastEvent >= MemoryPressureState.quietSeconds else { return false }
        level = MemoryPressureLevel(rawValue: level.rawValue - 1) ?? .normal
        lastEvent = time
        return true
    }
}
