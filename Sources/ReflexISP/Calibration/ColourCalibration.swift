import ReflexCore

/// Colour temperature ↔ white-balance gains for one sensor, from its XYZ → camera matrix
/// (a DNG ColorMatrix; the Board file gives it). Without one the sensor is taken to have
/// sRGB primaries, which is what a preview of an uncalibrated sensor can do.
public struct ColourCalibration: Sendable, Equatable {
    public let cameraFromXYZ: Matrix3

    public init(cameraFromXYZ: Matrix3 = .sRGBFromXYZ) {
        self.cameraFromXYZ = cameraFromXYZ
    }

    /// Camera RGB → linear sRGB, rows normalised so white balance decides white.
    public var previewMatrix: Matrix3 {
        guard let xyzFromCamera = cameraFromXYZ.inverse else { return .identity }
        return (Matrix3.sRGBFromXYZ * xyzFromCamera).rowsNormalised
    }

    /// The gains (red, green = 1, blue) that make a grey lit at `kelvin` come out grey.
    /// Light too warm or too cool for the sensor's primaries gives a negative component;
    /// it is floored, so the gains stay finite and positive (and simply large).
    public func gains(kelvin: Int) -> SIMD3<Double> {
        let white = cameraFromXYZ.apply(ColourCalibration.xyz(kelvin: Double(kelvin)))
        let floor = max(white.y, 1e-6) * 0.01
        return SIMD3(max(white.y, floor) / max(white.x, floor), 1, max(white.y, floor) / max(white.z, floor))
    }

    /// The colour temperature whose gains are nearest to `gains` (by the red/blue balance),
    /// for showing what Auto white balance chose.
    public func kelvin(forGains gains: SIMD3<Double>) -> Int {
        guard gains.x > 0, gains.z > 0, gains.x.isFinite, gains.z.isFinite else { return 5500 }
        let wanted = FastMath.log2(gains.x / gains.z)
        var best = 2000
        var bestError = Double.infinity
        for kelvin in stride(from: 1700, through: 12000, by: 50) {
            let g = self.gains(kelvin: kelvin)
            let error = abs(FastMath.log2(g.x / g.z) - wanted)
            if error < bestError { bestError = error; best = kelvin }
        }
        return best
    }

    /// CIE XYZ (Y = 1) of light at `kelvin`, the way a camera's Kelvin setting means it:
    /// from 4000 K up, daylight (the CIE daylight locus, on which 6504 K is D65); below, a
    /// black body, like tungsten (Kim et al.'s cubic fit of the Planckian locus, from 1667 K).
    public static func xyz(kelvin: Double) -> SIMD3<Double> {
        let t = min(max(kelvin, 1667), 25000)
        let (t1, t2, t3) = (1e3 / t, 1e6 / (t * t), 1e9 / (t * t * t))
        let x: Double, y: Double
        if t >= 4000 {
            x = t <= 7000
                ? -4.6070 * t3 + 2.9678 * t2 + 0.09911 * t1 + 0.244063
                : -2.0064 * t3 + 1.9018 * t2 + 0.24748 * t1 + 0.237040
            y = -3.000 * x * x + 2.870 * x - 0.275
        } else {
            x = -0.2661239 * t3 - 0.2343589 * t2 + 0.8776956 * t1 + 0.179910
            let (x2, x3) = (x * x, x * x * x)
            y = t <= 2222 ? -1.1063814 * x3 - 1.34811020 * x2 + 2.18555832 * x - 0.20219683
                : -0.9549476 * x3 - 1.37418593 * x2 + 2.09137015 * x - 0.16748867
        }
        return SIMD3(x / y, 1, (1 - x - y) / y)
    }
}
