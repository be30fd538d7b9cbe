/// A gain control's value ↔ the analogue gain multiplier ↔ ISO, linear through the unity value.
public struct GainMapping: Sendable, Equatable {
    public let controlRange: ClosedRange<Int64>
    public let unity: Double
    public let baseISO: Double

    public init(controlRange: ClosedRange<Int64>, unity: Double, baseISO: Double) {
        self.controlRange = controlRange
        self.unity = unity
        self.baseISO = baseISO
    }

    /// The multipliers the control reaches (never below 1×: gain below unity only loses range).
    public var gainRange: ClosedRange<Double> {
        max(Double(controlRange.lowerBound) / unity, 1)...max(Double(controlRange.upperBound) / unity, 1)
    }

    public var isoRange: ClosedRange<Int> {
        Int((gainRange.lowerBound * baseISO).rounded())...Int((gainRange.upperBound * baseISO).rounded())
    }

    public func controlValue(forGain gain: Double) -> Int64 {
        min(max(Int64((gain * unity).rounded()), controlRange.lowerBound), controlRange.upperBound)
    }

    public func gain(forControlValue value: Int64) -> Double { Double(value) / unity }

    public func gain(forISO iso: Int) -> Double { Double(iso) / baseISO }
}
