/// The four dials of Pro mode.
public enum Dial: String, Sendable, CaseIterable {
    case iso, shutter, focus, whiteBalance = "wb"

    /// How far a finger drags for one step, in points (1/160 inch, the seeds' unit).
    /// Seed 001 uses ~30 pt for focus; ISO and shutter stops are bigger changes and want a
    /// firmer pull; the Kelvin dial has 81 stops and wants a lighter one.
    public var dragThresholdPoints: Double {
        switch self {
        case .iso, .shutter: 40
        case .focus: 30
        case .whiteBalance: 16
        }
    }
}

/// Turns a drag on a dial into whole steps: the distance accumulates, each threshold crossed
/// is one step and the remainder carries over, so slow and fast drags give the same total.
public struct DialDragAccumulator: Sendable, Equatable {
    public let thresholdPixels: Double
    public private(set) var pendingPixels = 0.0

    public init(dial: Dial, density: PanelDensity) {
        thresholdPixels = density.pixels(fromPoints: dial.dragThresholdPoints)
    }

    /// Feed the finger's movement since the last event, positive = up the screen.
    /// Returns the steps to take: positive = up, negative = down.
    public mutating func feed(upwardPixels: Double) -> Int {
        pendingPixels += upwardPixels
        let steps = (pendingPixels / thresholdPixels).rounded(.towardZero)
        pendingPixels -= steps * thresholdPixels
        return Int(steps)
    }

    /// A finger lifted: a part-step is forgotten, not carried into the next drag.
    public mutating func reset() { pendingPixels = 0 }
}

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
