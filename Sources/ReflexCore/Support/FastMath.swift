/// Elementary functions without Foundation or Glibc (ReflexCore and ReflexISP import no C):
/// enough precision for stops, zoom ramps, gamma tables and colour temperatures.
public enum FastMath {
    static let ln2 = 0.693_147_180_559_945_3

    /// 2^x; relative error below 1e-15.
    public static func exp2(_ x: Double) -> Double {
        guard x.isFinite else { return x > 0 ? .infinity : 0 }
        guard x.magnitude < 1000 else { return x > 0 ? .infinity : 0 }
        // 2^x = 2^n * e^(f·ln2) with n = floor(x), f in [0, 1); the series for e^y converges fast.
        let n = x.rounded(.down)
        let y = (x - n) * ln2
        var term = 1.0
        var sum = 1.0
        var k = 1.0
        while term > 1e-17 * sum {
            term *= y / k
            sum += term
            k += 1
        }
        return Double(sign: .plus, exponent: Int(n), significand: sum)
    }

    /// cos(x); absolute error below 1e-15 (the series after reducing x to ±π).
    public static func cos(_ x: Double) -> Double {
        guard x.isFinite else { return .nan }
        let y = x - (x / (2 * Double.pi)).rounded() * 2 * Double.pi
        let square = y * y
        var term = 1.0, sum = 1.0, k = 0.0
        repeat {
            term *= -square / ((k + 1) * (k + 2))
            sum += term
            k += 2
        } while term.magnitude > 1e-17
        return sum
    }

    /// log2(x) for x > 0; absolute error below 1e-14.
    public static func log2(_ x: Double) -> Double {
        precondition(x > 0, "log2 of a non-positive number")
        // x = m·2^e with m in [1, 2): ln m = 2·atanh((m−1)/(m+1)), a fast series.
        let m = x.significand
        let t = (m - 1) / (m + 1)
        var term = t
        var sum = 0.0
        var k = 1.0
        while abs(term) > 1e-17 {
            sum += term / k
            term *= t * t
            k += 2
        }
        return Double(x.exponent) + 2 * sum / ln2
    }

    /// x^y for x ≥ 0.
    public static func pow(_ x: Double, _ y: Double) -> Double {
        x == 0 ? (y == 0 ? 1 : 0) : exp2(y * log2(x))
    }
}

/// How many stops apart two positive quantities are, as a ratio ≥ 1. Comparing ratios
/// ranks stops exactly as comparing |log2 a − log2 b| would, without a logarithm.
func stopRatio(_ a: Double, _ b: Double) -> Double {
    a > b ? a / b : b / a
}
