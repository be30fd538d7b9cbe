import ReflexCore
import Testing
@testable import ReflexISP

/// The focus measure: sharper detail measures higher; exposure alone does not move it.
@Suite("Focus measure")
struct FocusMeasureTests {
    /// A 64×64 RGGB 12-bit frame of vertical stripes 3 pixels wide, `amplitude` about `level`.
    static func stripes(level: Double, amplitude: Double) -> [UInt16] {
        (0..<64 * 64).map { index in
            let x = index % 64
            return UInt16(64 + level * (1 + (x / 3 % 2 == 0 ? amplitude : -amplitude)))
        }
    }

    static let layout = RawLayout(width: 64, height: 64, format: RawFormat(cfa: .rggb, bitsPerSample: 12, packing: .unpacked16))

    static func measure(_ samples: [UInt16], box: PixelRect = PixelRect(x: 8, y: 8, width: 40, height: 40)) -> Double {
        samples.withUnsafeBytes { FocusMeasure.contrast($0.baseAddress!, layout: layout, box: box, blackLevel: 64) }
    }

    @Test func sharperDetailMeasuresHigher() {
        let sharp = Self.measure(Self.stripes(level: 1000, amplitude: 0.4))
        let soft = Self.measure(Self.stripes(level: 1000, amplitude: 0.1))
        let flat = Self.measure(Self.stripes(level: 1000, amplitude: 0))
        #expect(sharp > 3.5 * soft && soft > 0 && flat == 0, "\(sharp) \(soft) \(flat)")
    }

    @Test func exposureAloneDoesNotMoveIt() {
        let dim = Self.measure(Self.stripes(level: 500, amplitude: 0.3))
        let bright = Self.measure(Self.stripes(level: 2000, amplitude: 0.3))
        #expect(abs(dim / bright - 1) < 0.03, "\(dim) \(bright)")
    }

    @Test func aBoxOutsideTheFrameMeasuresNothing() {
        #expect(Self.measure(Self.stripes(level: 1000, amplitude: 0.4), box: PixelRect(x: 70, y: 70, width: 10, height: 10)) == 0)
    }
}
