import Testing
@testable import ReflexFormats

@Suite("EXIF fractions")
struct ExifFractionTests {
    @Test(arguments: [
        (1.0 / 125, false, 1, 125), (2.8, false, 14, 5), (4.4, false, 22, 5), (1.0 / 3, false, 1, 3),
        (30, false, 30, 1), (0, false, 0, 1), (-1.0 / 3, true, -1, 3), (2.0 / 3, true, 2, 3), (-2, true, -2, 1),
        (-1, false, 0, 1), (1e12, false, 4_294_967_295, 1), (Double.nan, false, 0, 1),
    ] as [(Double, Bool, Int64, Int64)])
    func simplestFraction(_ value: Double, _ signed: Bool, _ numerator: Int64, _ denominator: Int64) {
        let fraction = ExifFraction(value, signed: signed)
        #expect(fraction.numerator == numerator && fraction.denominator == denominator, "\(value)")
    }

    @Test func closeToAnyValue() {
        for value in [0.0079987, 3.14159265358979, 0.000123, 1234.5678, 1.0 / 8000] {
            let fraction = ExifFraction(value, signed: false)
            #expect(abs(fraction.value - value) <= value * 1e-7, "\(value) → \(fraction)")
            #expect(fraction.denominator <= Int64(UInt32.max) && fraction.numerator <= Int64(UInt32.max))
        }
    }
}
