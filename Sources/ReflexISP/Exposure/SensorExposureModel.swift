/// What a sensor's exposure controls can do, in the terms Auto exposure works in: the
/// exposure and gain ranges (seconds and multipliers) and how gain maps to ISO. The
/// hardware side reads it from the V4L2 controls and the board's calibration; everything
/// decided from it is pure.
public struct SensorExposureModel: Sendable, Equatable {
    public var limits: ExposureLimits
    /// The gain control's scale, nil without a gain control (digital gain only).
    public var gainMapping: GainMapping?

    public init(limits: ExposureLimits, gainMapping: GainMapping?) {
        self.limits = limits
        self.gainMapping = gainMapping
    }

    /// The ISO at 1× gain.
    public var baseISO: Double { gainMapping?.baseISO ?? 100 }

    /// A manual ISO: the gain that gives it; what the sensor cannot reach, digital gain adds.
    public func setting(forISO iso: Int, exposure: Double) -> ExposureSetting {
        let wanted = gainMapping?.gain(forISO: iso) ?? Double(iso) / 100
        let analog = min(max(wanted, limits.analogGain.lowerBound), limits.analogGain.upperBound)
        return ExposureSetting(exposure: exposure, analogGain: analog, digitalGain: max(wanted / analog, 1))
    }

    /// The ISO a setting gives (analogue × digital gain over the base ISO).
    public func iso(of setting: ExposureSetting) -> Int {
        Int((setting.analogGain * setting.digitalGain * baseISO).rounded())
    }
}
