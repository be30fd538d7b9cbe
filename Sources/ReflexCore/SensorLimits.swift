/// What the sensor and lens can do, discovered at run time (V4L2 controls + the Board file).
public struct SensorLimits: Sendable, Equatable {
    public var isoRange: ClosedRange<Int>
    public var exposureRange: ClosedRange<Double>
    public var hasFocusControl: Bool
    /// A Bayer format exists, so RAW (DNG) can be offered.
    public var hasRawFormat: Bool

    public init(isoRange: ClosedRange<Int>, exposureRange: ClosedRange<Double>,
                hasFocusControl: Bool, hasRawFormat: Bool) {
        self.isoRange = isoRange
        self.exposureRange = exposureRange
        self.hasFocusControl = hasFocusControl
        self.hasRawFormat = hasRawFormat
    }

    /// A sensor that reaches every stop the seeds list.
    public static let unlimited = SensorLimits(
        isoRange: 100...12800, exposureRange: (1.0 / 8000)...1.0, hasFocusControl: true, hasRawFormat: true)
}
