/// How a sensor's analogue gain control's value gives the gain multiplier.
public enum GainLaw: Sendable, Equatable {
    /// gain = value ÷ unity: most drivers (vivid's "gain", sensors whose register is linear).
    case linear(unity: Double)
    /// gain = K ÷ (K − value): Sony's analogue gain registers (the IMX219's K is 256, the
    /// IMX477's and IMX708's 1024), which their Linux drivers pass through as the control.
    case reciprocal(Double)

    /// `1024/(1024-code)` as sensor.conf's `gain-law` writes it, the same K on both sides.
    public init?(parsing text: String) {
        let compact = text.filter { !$0.isWhitespace }.lowercased()
        let parts = compact.split(separator: "/", maxSplits: 1).map(String.init)
        guard parts.count == 2, let constant = Double(parts[0]), constant > 0, constant < 1e9,
              parts[1] == "(\(parts[0])-code)" else { return nil }
        self = .reciprocal(constant)
    }

    public func gain(forControlValue value: Double) -> Double {
        switch self {
        case .linear(let unity): return value / unity
        case .reciprocal(let constant): return value < constant ? constant / (constant - value) : .infinity
        }
    }

    /// The control value (not yet rounded or clamped) that gives `gain`.
    public func controlValue(forGain gain: Double) -> Double {
        switch self {
        case .linear(let unity): return gain * unity
        case .reciprocal(let constant): return constant - constant / max(gain, .leastNonzeroMagnitude)
        }
    }
}
