import ReflexCore
import Testing
@testable import ReflexISP

/// A frame can be made by two threads, each rendering a band of output rows with a PreviewISP
/// of its own: the bands put together are exactly the whole frame rendered at once, for every
/// kind of picture, with the letterbox, with a zoom crop, wherever the split falls.
@Suite("The preview ISP in bands")
struct BandRenderingTests {
    static let (width, height) = (64, 48)
    static let (outputWidth, outputHeight) = (96, 80)
    /// A 16:9 picture letterboxed in 96x80, so both bands may hold black rows.
    static let destination = PixelRect(x: 0, y: 0, width: outputWidth, height: outputHeight)
        .fitting(sourceWidth: 16, sourceHeight: 9)
    // The picture is rows 13..<67: splits at both ends, on and beside its edges, and mid-picture.
    static let splits = [0, 1, 12, 13, 14, 40, 41, 66, 67, 68, 79, 80]

    /// A frame whose every sample differs (a pattern, not noise: failures are reproducible).
    static func pattern(_ count: Int, maximum: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: ($0 * 37 + ($0 / 7) * 11) % maximum) }
    }

    /// Renders with `body` into a fresh output, whole, and as two bands split at each row of
    /// `splits` by two ISPs; expects every split to equal the whole.
    static func expectBandsMatchTheWhole(
        _ body: (PreviewISP, UnsafeMutablePointer<UInt32>, Range<Int>?) -> Void, makeISP: () -> PreviewISP
    ) {
        func output(_ fill: (UnsafeMutablePointer<UInt32>) -> Void) -> [UInt32] {
            var pixels = [UInt32](repeating: 0x1234_5678, count: outputWidth * outputHeight)
            pixels.withUnsafeMutableBufferPointer { fill($0.baseAddress!) }
            return pixels
        }
        let whole = output { body(makeISP(), $0, nil) }
        let upperISP = makeISP(), lowerISP = makeISP()
        for split in splits {
            let banded = output { pixels in
                body(upperISP, pixels, 0..<split)
                body(lowerISP, pixels, split..<outputHeight)
            }
            let same = banded == whole
            #expect(same, "split at row \(split)")
        }
    }

    @Test(arguments: [nil, PixelRect(x: 10, y: 6, width: 40, height: 30)])
    func bayerBandsMakeTheWholeFrame(crop: PixelRect?) {
        let format = RawFormat(cfa: .grbg, bitsPerSample: 10, packing: .unpacked16)
        let frame = Self.pattern(Self.width * Self.height * 2, maximum: 251).enumerated().map { $0.offset % 2 == 1 ? $0.element & 3 : $0.element }
        let parameters = ISPParameters(blackLevel: 16, whiteLevel: 1023, whiteBalance: SIMD3(1.7, 1, 1.4))
        Self.expectBandsMatchTheWhole({ isp, pixels, rows in
            frame.withUnsafeBytes { raw in
                isp.renderBayer(raw.baseAddress!, layout: RawLayout(width: Self.width, height: Self.height, format: format),
                                crop: crop, into: pixels, outputWidth: Self.outputWidth, outputHeight: Self.outputHeight,
                                outputStride: Self.outputWidth, destination: Self.destination, rows: rows)
            }
        }, makeISP: {
            let isp = PreviewISP(maximumSourceWidth: Self.width, maximumSourceHeight: Self.height, maximumOutputWidth: Self.outputWidth)
            isp.setParameters(parameters, format: format)
            return isp
        })
    }

    @Test func yuyvBandsMakeTheWholeFrame() {
        let frame = Self.pattern(Self.width * Self.height * 2, maximum: 256)
        Self.expectBandsMatchTheWhole({ isp, pixels, rows in
            frame.withUnsafeBytes { raw in
                isp.renderYUYV(raw.baseAddress!, width: Self.width, height: Self.height, bytesPerLine: Self.width * 2,
                               crop: PixelRect(x: 8, y: 4, width: 48, height: 36), into: pixels,
                               outputWidth: Self.outputWidth, outputHeight: Self.outputHeight, outputStride: Self.outputWidth,
                               destination: Self.destination, rows: rows)
            }
        }, makeISP: { PreviewISP(maximumSourceWidth: Self.width, maximumSourceHeight: Self.height, maximumOutputWidth: Self.outputWidth) })
    }

    @Test func halfSizeBandsMakeTheWholeFrame() {
        let picture = (0..<(Self.width / 2 * Self.height / 2)).map { UInt32(truncatingIfNeeded: $0 &* 2_654_435_761) | 0xFF00_0000 }
        Self.expectBandsMatchTheWhole({ isp, pixels, rows in
            picture.withUnsafeBufferPointer { source in
                isp.renderHalfSizeXRGB(source.baseAddress!, width: Self.width / 2, height: Self.height / 2, into: pixels,
                                       outputWidth: Self.outputWidth, outputHeight: Self.outputHeight,
                                       outputStride: Self.outputWidth, destination: Self.destination, rows: rows)
            }
        }, makeISP: { PreviewISP(maximumSourceWidth: Self.width, maximumSourceHeight: Self.height, maximumOutputWidth: Self.outputWidth) })
    }

    /// A band asks the scaler's source for only the rows it blends: the letterbox for none,
    /// the upper half of a 720-row picture from a 540-row half-size one for about half of them.
    @Test func aBandAsksOnlyForItsSourceRows() {
        let scaler = PictureScaler(maximumSourceWidth: 960, maximumOutputWidth: 1280)
        let source = [UInt32](repeating: 0xFF80_8080, count: 960)
        var output = [UInt32](repeating: 0, count: 1280 * 800)
        func askedRows(_ band: Range<Int>) -> Set<Int> {
            var asked = Set<Int>()
            source.withUnsafeBufferPointer { row in
                output.withUnsafeMutableBufferPointer { out in
                    scaler.scale(width: 960, height: 540, into: out.baseAddress!, outputWidth: 1280, outputHeight: 800,
                                 outputStride: 1280, destination: PixelRect(x: 0, y: 40, width: 1280, height: 720),
                                 rows: band) { index in asked.insert(index); return row.baseAddress! }
                }
            }
            return asked
        }
        #expect(askedRows(0..<40).isEmpty, "the letterbox asks for nothing")
        let upper = askedRows(0..<400), lower = askedRows(400..<800)
        #expect(upper.min() == 0 && lower.max() == 539)
        #expect(upper.count < 275 && lower.count < 275 && upper.union(lower).count == 540, "\(upper.count), \(lower.count)")
    }

    @Test func theTestsPictureHasALetterboxAboveAndBelow() {
        #expect(Self.destination == PixelRect(x: 0, y: 13, width: 96, height: 54))
    }
}
