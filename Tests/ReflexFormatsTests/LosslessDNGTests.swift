import ReflexTestSupport
import ReflexISP
import Testing
@testable import ReflexFormats

/// DNGs whose raw is lossless JPEG (compression 7), decoded by LibRaw and dcraw to exactly
/// the values the sensor gave: every packing, tiles past the frame's edges, the full 16-bit
/// range a merged raw uses, and a real frame.
@Suite("Lossless JPEG DNG")
struct LosslessDNGTests {
    @Test(.tags(.externalTool), arguments: [
        RawFormat(cfa: .rggb, bitsPerSample: 10, packing: .csi2Packed10),
        RawFormat(cfa: .gbrg, bitsPerSample: 12, packing: .csi2Packed12),
        RawFormat(cfa: .bggr, bitsPerSample: 8, packing: .bits8),
        RawFormat(cfa: .grbg, bitsPerSample: 16, packing: .unpacked16),
    ])
    func everyPackingDecodesToTheSameValues(_ format: RawFormat) throws {
        // 598 × 450: neither a whole number of tiles nor of RAW10 groups; rows padded.
        let raw = SyntheticRaw(width: 598, height: 450, format: format, padding: 6)
        let dng = try EncodedDNG(raw, description: TestPhotos.description(blackLevels: [16, 16, 16, 16],
                                                                          whiteLevel: format.maximumValue),
                                 compression: .losslessJPEG)
        let libRaw = try dng.libRawSamples()
        #expect(libRaw.width == 598 && libRaw.height == 450)
        #expect(SampleDifference.first(libRaw.samples, raw.samples, width: raw.width) == nil, "LibRaw, \(format)")
        let dcraw = try dng.dcrawSamples()
        #expect(dcraw.width == 598 && dcraw.height == 450)
        #expect(SampleDifference.first(dcraw.samples, raw.samples, width: raw.width) == nil, "dcraw, \(format)")
        #expect(try dng.validationWarnings() == [])
        let tags = try dng.tags()
        #expect(tags["SubIFD:Compression"] == "7" && tags["SubIFD:TileWidth"] == "256", "lossless JPEG tiles")
    }

    @Test(.tags(.externalTool)) func sixteenBitNoiseAndItsExtremes() throws {
        // Differences of every size up to 16 bits (±32768 wraps), as a merged raw can have.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var samples = (0..<(300 * 200)).map { _ in
            state ^= state << 13; state ^= state >> 7; state ^= state << 17  // xorshift64
            return UInt16(truncatingIfNeeded: state >> 24)
        }
        for index in stride(from: 0, to: samples.count, by: 97) { samples[index] = index % 2 == 0 ? 0 : 65535 }
        let raw = SyntheticRaw(width: 300, height: 200, format: RawFormat(cfa: .rggb, bitsPerSample: 16, packing: .unpacked16),
                               samples: samples)
        let dng = try EncodedDNG(raw, description: TestPhotos.description(blackLevels: [0, 0, 0, 0], whiteLevel: 65535),
                                 compression: .losslessJPEG)
        #expect(SampleDifference.first(try dng.libRawSamples().samples, samples, width: 300) == nil)
        #expect(SampleDifference.first(try dng.dcrawSamples().samples, samples, width: 300) == nil)
    }

    @Test(.tags(.externalTool)) func aRealFrameInLessThanTwoThirdsOfItsBytes() throws {
        let frame = try TemporaryFolder.read(RealFrameDNGTests.folder + "/imx219_1920x1080_SRGGB10_CSI2P.raw")
        let layout = RawLayout(width: 1920, height: 1080, bytesPerLine: 2400,
                               format: RawFormat(cfa: .rggb, bitsPerSample: 10, packing: .csi2Packed10))
        let description = TestPhotos.description(blackLevels: [64, 64, 64, 64], whiteLevel: 1023)
        let plain = try EncodedDNG(frame: frame, layout: layout, description: description)
        let lossless = try EncodedDNG(frame: frame, layout: layout, description: description, compression: .losslessJPEG)
        #expect(SampleDifference.first(try lossless.libRawSamples().samples, try plain.libRawSamples().samples,
                                       width: 1920) == nil)
        #expect(lossless.bytes.count * 3 < plain.bytes.count * 2,
                "\(lossless.bytes.count) bytes beside \(plain.bytes.count) uncompressed")
        // LibRaw's whole rendering goes through too.
        let render = try ChildProcess.run(["dcraw_emu", "-h", lossless.path])
        #expect(!render.allText.contains("Cannot") && !render.allText.contains("Unsupported"), "\(render.allText)")
    }

    /// An Enhanced RAW's kind of file (a real frame scaled to 16 bits, as a merge stores it)
    /// rendered by RawTherapee and by darktable from lossless JPEG exactly as from the
    /// uncompressed samples: each decoded the same values.
    @Test(.tags(.externalTool)) func rawEditorsRenderTheLosslessFileAsTheUncompressedOne() throws {
        let frame = try TemporaryFolder.read(RealFrameDNGTests.folder + "/imx219_1920x1080_SRGGB10_CSI2P.raw")
        let (width, height) = (1920, 1080)
        let samples = RealFrameDNGTests.unpackRAW10(frame, width: width, height: height, bytesPerLine: 2400)
        let raw = SyntheticRaw(width: width, height: height, format: RawFormat(cfa: .rggb, bitsPerSample: 16, packing: .unpacked16),
                               samples: samples.map { $0 << 6 })
        let description = TestPhotos.description(blackLevels: [4096, 4096, 4096, 4096], whiteLevel: 1023 << 6)
        let plain = try EncodedDNG(raw, description: description)
        let lossless = try EncodedDNG(raw, description: description, compression: .losslessJPEG)
        let rawTherapee = try plain.rawTherapeeRender()
        // (RawTherapee leaves out a border of 4 pixels its demosaic cannot fill.)
        #expect(rawTherapee.count == (width - 8) * (height - 8) * 6, "a whole 16-bit picture")
        #expect(rawTherapee.contains { $0 != 0 })
        #expect(try lossless.rawTherapeeRender() == rawTherapee, "RawTherapee renders both files alike")
        let darktable = try plain.darktableRender()
        #expect(darktable.count > width * height * 5 && darktable.contains { $0 != 0 }, "\(darktable.count) bytes")
        #expect(try lossless.darktableRender() == darktable, "darktable renders both files alike")
    }

    @Test func huffmanCodesArePrefixFreeWithinSixteenBitsAndNeverAllOnes() {
        // Counts like Fibonacci's make an unlimited code 17 bits deep: the limit must act.
        var fibonacci = [1, 1]
        while fibonacci.count < 17 { fibonacci.append(fibonacci[fibonacci.count - 1] + fibonacci[fibonacci.count - 2]) }
        for frequencies in [fibonacci, [0, 5, 0, 0, 9] + [Int](repeating: 0, count: 12), [100] + [Int](repeating: 0, count: 16)] {
            let code = JPEGHuffmanCode(frequencies: frequencies)
            let used = frequencies.indices.filter { frequencies[$0] > 0 }
            #expect(used.allSatisfy { code.lengths[$0] >= 1 && code.lengths[$0] <= 16 }, "\(frequencies)")
            #expect(code.symbols.count == used.count)
            #expect(code.lengthCounts.map(Int.init).reduce(0, +) == used.count)
            for a in used {
                let bits = Int(code.lengths[a])
                #expect(Int(code.codes[a]) != (1 << bits) - 1, "symbol \(a) has the all-ones code")
                for b in used where b != a && code.lengths[b] >= code.lengths[a] {
                    let prefix = Int(code.codes[b]) >> (Int(code.lengths[b]) - bits)
                    #expect(prefix != Int(code.codes[a]), "\(a)'s code begins \(b)'s")
                }
            }
        }
    }
}
