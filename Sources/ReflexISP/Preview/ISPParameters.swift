/// What the preview ISP applies, set per frame by Auto (AE/AWB) or by the Pro dials.
public struct ISPParameters: Sendable, Equatable {
    /// The sensor's black level, in sample units.
    public var blackLevel: Int
    /// The value of a saturated sample.
    public var whiteLevel: Int
    /// White-balance gains (green = 1).
    public var whiteBalance: SIMD3<Double>
    /// A gain on top of the sensor's, where the sensor cannot reach the ISO asked for.
    public var digitalGain: Double
    /// Camera RGB → linear sRGB.
    public var colorMatrix: Matrix3

    public init(blackLevel: Int, whiteLevel: Int, whiteBalance: SIMD3<Double> = SIMD3(1, 1, 1),
                digitalGain: Double = 1, colorMatrix: Matrix3 = .identity) {
        precondition(whiteLevel > blackLevel, "white must lie above black")
        self.blackLevel = blackLevel
        self.whiteLevel = whiteLevel
        self.whiteBalance = whiteBalance
        self.digitalGain = digitalGain
        self.colorMatrix = colorMatrix
    }
}
