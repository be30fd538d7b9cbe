/// Turns rotary-encoder motion into steps. libinput reports a wheel in v120 units (120 a
/// detent; high-resolution wheels send fractions of that), so one detent is one step.
public struct DetentAccumulator: Sendable, Equatable {
    public static let unitsPerDetent = 120
    public private(set) var pendingUnits = 0

    public init() {}

    /// Returns the whole detents completed: positive = up (clockwise).
    public mutating func feed(v120: Int) -> Int {
        pendingUnits += v120
        let steps = pendingUnits / DetentAccumulator.unitsPerDetent
        pendingUnits -= steps * DetentAccumulator.unitsPerDetent
        return steps
    }
}
