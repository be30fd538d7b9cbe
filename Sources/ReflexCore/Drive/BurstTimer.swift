/// Holding the shutter takes a burst (docs/camera.md, Photos: at least 10 frames a second). The
/// first photo is taken at the press; once the shutter has been held `holdSeconds`, the
/// burst's photos are due at the press plus each `interval`, the first ones already past:
/// the zero-lag ring still holds those frames, so the burst starts at the press, not at the
/// moment it was recognised as one. Letting go ends it. Times are the input events' own.
public struct BurstTimer: Sendable, Equatable {
    public static let holdSeconds = 0.25
    public let interval: Double
    private var pressedAt: Double?
    /// Burst photos due so far (the press's own is not counted).
    private var taken = 0

    public init(framesPerSecond: Double = 10) { interval = 1 / framesPerSecond }

    public var isHeld: Bool { pressedAt != nil }

    public mutating func press(at time: Double) {
        pressedAt = time
        taken = 0
    }

    /// Let go at `time`: photos due up to then are still taken (`next` gives them), no more.
    public mutating func release(at time: Double) {
        guard let pressedAt else { return }
        releasedAt = time - pressedAt < BurstTimer.holdSeconds ? pressedAt : time
    }

    private var releasedAt: Double?

    /// The next burst photo's time if one is due by `now`, else nil; call until nil.
    public mutating func next(at now: Double) -> Double? {
        guard let pressedAt else { return nil }
        let end = min(now, releasedAt ?? now)
        guard end - pressedAt >= BurstTimer.holdSeconds else {
            if releasedAt != nil { finish() }
            return nil
        }
        let due = pressedAt + Double(taken + 1) * interval
        guard due <= end else {
            if releasedAt != nil { finish() }
            return nil
        }
        taken += 1
        return due
    }

    private mutating func finish() {
        pressedAt = nil
        releasedAt = nil
    }
}
