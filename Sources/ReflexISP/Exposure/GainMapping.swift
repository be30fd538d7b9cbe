/// A gain control's value ↔ the analogue gain multiplier ↔ ISO, through the sensor's gain law.
public struct GainMapping: Sendable, Equatable {
    public let controlRange: ClosedRange<Int64>
    public let law: GainLaw
    public let baseISO: Double

    public init(controlRange: ClosedRange<Int64>, law: GainLaw, baseISO: Double) {
        self.controlRange = controlRange
        self.law = law
        self.baseISO = baseISO
    }

    /// Linear through `unity`, the control's value at 1×.
    public init(controlRange: ClosedRange<Int64>, unity: Double, baseISO: Double) {
        self.init(controlRange: controlRange, law: .linear(unity: unity), baseISO: baseISO)
    }

    /// The multipliers the control reaches (never below 1×: gain below unity only loses range).
    public var gainRange: ClosedRange<Double> {
        max(gain(forControlValue: controlRange.lowerBound), 1)...max(gain(forControlValue: controlRange.upperBound), 1)
    }

    public var isoRange: ClosedRange<Int> {
        Int((gainRange.lowerBound * baseISO).rounded())...Int((gainRange.upperBound * baseISO).rounded())
    }

    public func controlValue(forGain gain: Double) -> Int64 {
        let value = law.controlValue(forGain: gain)
        guard value.isFinite else { return value > 0 ? controlRange.upperBound : controlRange.lowerBound }
        return min(max(Int64(value.rounded()), controlRange.lowerBound), controlRange.upperBound)
    }

    public func gain(forControlValue value: Int64) -> Double { law.gain(forControlValue: Double(value)) }

    public func gain(forISO iso: Int) -> Double { Double(iso) / baseISO }
}
