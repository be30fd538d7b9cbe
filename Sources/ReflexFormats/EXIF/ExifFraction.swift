/// An EXIF (S)RATIONAL: the simplest fraction for a value, so 1/125 s is written as 1/125 and
/// f/2.8 as 14/5, not as the nearest binary fraction of a float.
struct ExifFraction: Equatable {
    let numerator: Int64
    let denominator: Int64

    /// The first continued-fraction convergent of `value` within a ten-millionth of it (relative)
    /// whose terms fit 32 bits (signed for SRATIONAL); negative values only when `signed`.
    init(_ value: Double, signed: Bool) {
        let limit = Double(signed ? Int64(Int32.max) : Int64(UInt32.max))
        let finite = value.isFinite ? value : 0
        let magnitude = min(signed ? abs(finite) : max(finite, 0), limit)
        let sign: Int64 = finite < 0 ? -1 : 1
        var (h, k) = (magnitude.rounded(.down), 1.0)  // the convergent so far, h/k
        var (previousH, previousK) = (1.0, 0.0)
        var rest = magnitude - h
        while rest > 1e-12, abs(h / k - magnitude) > magnitude * 1e-7 {
            let x = 1 / rest
            let a = x.rounded(.down)
            let (nextH, nextK) = (a * h + previousH, a * k + previousK)
            guard nextH <= limit, nextK <= limit else { break }
            (previousH, previousK, h, k) = (h, k, nextH, nextK)
            rest = x - a
        }
        numerator = sign * Int64(h)
        denominator = Int64(k)
    }

    /// A fraction as it is (a coordinate's seconds in ten-thousandths).
    init(numerator: Int64, denominator: Int64) {
        (self.numerator, self.denominator) = (numerator, denominator)
    }

    var value: Double { Double(numerator) / Double(denominator) }
}
