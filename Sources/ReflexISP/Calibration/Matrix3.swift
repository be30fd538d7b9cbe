/// A 3×3 matrix, row-major, for colour conversions.
public struct Matrix3: Sendable, Equatable {
    public var m: [Double]

    public init(_ m: [Double]) {
        precondition(m.count == 9, "a 3×3 matrix has 9 entries")
        self.m = m
    }

    public static let identity = Matrix3([1, 0, 0, 0, 1, 0, 0, 0, 1])

    /// XYZ (D65) → linear sRGB, IEC 61966-2-1.
    public static let sRGBFromXYZ = Matrix3([
        3.2404542, -1.5371385, -0.4985314,
        -0.9692660, 1.8760108, 0.0415560,
        0.0556434, -0.2040259, 1.0572252,
    ])

    public func apply(_ v: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(m[0] * v.x + m[1] * v.y + m[2] * v.z,
              m[3] * v.x + m[4] * v.y + m[5] * v.z,
              m[6] * v.x + m[7] * v.y + m[8] * v.z)
    }

    public static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        var r = [Double](repeating: 0, count: 9)
        for i in 0..<3 { for j in 0..<3 { for k in 0..<3 { r[i * 3 + j] += a.m[i * 3 + k] * b.m[k * 3 + j] } } }
        return Matrix3(r)
    }

    public var inverse: Matrix3? {
        let a = m
        let c0 = a[4] * a[8] - a[5] * a[7], c1 = a[5] * a[6] - a[3] * a[8], c2 = a[3] * a[7] - a[4] * a[6]
        let det = a[0] * c0 + a[1] * c1 + a[2] * c2
        guard abs(det) > 1e-12 else { return nil }
        return Matrix3([
            c0 / det, (a[2] * a[7] - a[1] * a[8]) / det, (a[1] * a[5] - a[2] * a[4]) / det,
            c1 / det, (a[0] * a[8] - a[2] * a[6]) / det, (a[2] * a[3] - a[0] * a[5]) / det,
            c2 / det, (a[1] * a[6] - a[0] * a[7]) / det, (a[0] * a[4] - a[1] * a[3]) / det,
        ])
    }

    /// Each row scaled to sum to 1, so white stays white after white balance.
    public var rowsNormalised: Matrix3 {
        var r = m
        for row in 0..<3 {
            let sum = r[row * 3] + r[row * 3 + 1] + r[row * 3 + 2]
            if abs(sum) > 1e-12 { for c in 0..<3 { r[row * 3 + c] /= sum } }
        }
        return Matrix3(r)
    }
}
