import ReflexCore

/// How a frame was (or should be) exposed: sensor exposure time and analogue gain, and the
/// digital gain the ISP adds where the sensor's own gain runs out.
public struct ExposureSetting: Sendable, Equatable {
    public var exposure: Double
    public var analogGain: Double
    public var digitalGain: Double

    public init(exposure: Double, analogGain: Double, digitalGain: Double = 1) {
        self.exposure = exposure
        self.analogGain = analogGain
        self.digitalGain = digitalGain
    }

    /// Exposure × gain: what brightness is proportional to.
    public var product: Double { exposure * analogGain * digitalGain }

    /// Whether two settings are the same to within a sensor's rounding (1/20 stop).
    public func matches(_ other: ExposureSetting) -> Bool {
        ExposureSetting.sameBrightness(product, other.product)
    }

    static func sameBrightness(_ a: Double, _ b: Double) -> Bool {
        abs(FastMath.log2(a / b)) < 0.05
    }
}
