import ReflexCore

/// Auto white balance by the grey world: the average of a scene is taken to be grey, so the
/// gains that make the frame's mean neutral are the white balance. Followed smoothly, held
/// when the frame is too dark or too clipped to say anything.
public struct AutoWhiteBalance: Sendable {
    public static let gainRange = 0.25...8.0
    /// Part of the way to the new estimate taken per frame.
    public static let smoothing = 0.3
    public static let darkestUsable = 0.002
    public static let mostClipped = 0.5

    public private(set) var gains: SIMD3<Double>

    public init(initial: SIMD3<Double> = SIMD3(1, 1, 1)) {
        gains = initial
    }

    public mutating func update(meanRGB: SIMD3<Double>, clippedFraction: Double) -> SIMD3<Double> {
        guard min(meanRGB.x, meanRGB.y, meanRGB.z) > AutoWhiteBalance.darkestUsable,
              clippedFraction < AutoWhiteBalance.mostClipped else { return gains }
        let range = AutoWhiteBalance.gainRange
        let target = SIMD3(min(max(meanRGB.y / meanRGB.x, range.lowerBound), range.upperBound), 1,
                           min(max(meanRGB.y / meanRGB.z, range.lowerBound), range.upperBound))
        // Move in ratio (log) space, so warm and cool corrections feel alike.
        let k = AutoWhiteBalance.smoothing
        gains = SIMD3(gains.x * FastMath.pow(target.x / gains.x, k), 1, gains.z * FastMath.pow(target.z / gains.z, k))
        return gains
    }
}
