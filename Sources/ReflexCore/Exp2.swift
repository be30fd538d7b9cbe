/// 2^x without Foundation or Glibc (ReflexCore imports no C), for the zoom ramp.
/// Relative error below 1e-15 for the small x a ramp uses (seconds of holding).
func exp2(_ x: Double) -> Double {
    guard x.isFinite else { return x > 0 ? .infinity : 0 }
    guard x.magnitude < 1000 else { return x > 0 ? .infinity : 0 }
    // 2^x = 2^n * e^(f·ln2) with n = floor(x), f in [0, 1); the series for e^y converges fast.
    let n = x.rounded(.down)
    let y = (x - n) * 0.693_147_180_559_945_3
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

/// How many stops apart two positive quantities are, as a ratio ≥ 1. Comparing ratios
/// ranks stops exactly as comparing |log2 a − log2 b| would, without a logarithm.
func stopRatio(_ a: Double, _ b: Double) -> Double {
    a > b ? a / b : b / a
}
