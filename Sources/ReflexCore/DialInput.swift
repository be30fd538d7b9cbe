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

/// The panel's physical density, which turns the seeds' points into pixels.
public struct PanelDensity: Sendable, Equatable {
    /// The seeds' point: 1/160 inch ("180 pt ≈ 180 px at 160 dpi").
    public static let pointsPerInch = 160.0
    public let dotsPerInch: Double

    public init(dotsPerInch: Double) {
        precondition(dotsPerInch > 0, "a panel has a positive dpi")
        self.dotsPerInch = dotsPerInch
    }

    public var pixelsPerPoint: Double { dotsPerInch / PanelDensity.pointsPerInch }

    public func pixels(fromPoints points: Double) -> Double { points * pixelsPerPoint }

    /// Densities a camera's panel or a monitor can have; outside them the size is a
    /// placeholder (EDIDs of projectors and virtual panels give one), not a measure.
    public static let plausibleDotsPerInch = 40.0...1200.0

    /// The density of a panel from its mode and its physical size as the kernel reports it
    /// (a DRM connector's mm, from the EDID or the device tree): nil when the size is
    /// missing, implausible, or its two axes disagree by more than a quarter (a mode of
    /// another shape than the panel, stretched over it by a monitor).
    public static func measured(widthPixels: Int, heightPixels: Int,
                                widthMillimetres: Int, heightMillimetres: Int) -> PanelDensity? {
        guard widthPixels > 0, heightPixels > 0, widthMillimetres > 0, heightMillimetres > 0 else { return nil }
        func agree(_ w: Int, _ h: Int) -> Bool {
            let across = Double(widthPixels) / Double(w) * 25.4, down = Double(heightPixels) / Double(h) * 25.4
            return max(across, down) / min(across, down) <= 1.25
        }
        // (A portrait panel's device tree may give its size the other way round from its mode.)
        guard agree(widthMillimetres, heightMillimetres) || agree(heightMillimetres, widthMillimetres) else { return nil }
        // The diagonal's density: the same whichever way the panel is turned.
        let pixels = (Double(widthPixels * widthPixels + heightPixels * heightPixels)).squareRoot()
        let millimetres = (Double(widthMillimetres * widthMillimetres + heightMillimetres * heightMillimetres)).squareRoot()
        let dpi = pixels / millimetres * 25.4
        return plausibleDotsPerInch.contains(dpi) ? PanelDensity(dotsPerInch: dpi) : nil
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
