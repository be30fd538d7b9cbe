import ReflexTestSupport
import ReflexISP
import Testing
@testable import ReflexFormats

/// A real sensor frame: the IMX219 RAW10 frame of Tests/Data/raw (1920×1080, CSI-2 packed,
/// 2400 bytes a row, RGGB, black about 64, white 1023) through the encoder and back.
@Suite("DNG of a real IMX219 frame")
struct RealFrameDNGTests {
    static let folder: String = {
        var path = #filePath
        for _ in 0..<2 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return path + "/Data/raw"
    }()

    @Test(.tags(.externalTool)) func imx219FrameIsReadBackExactly() throws {
        let frame = try TemporaryFolder.read(Self.folder + "/imx219_1920x1080_SRGGB10_CSI2P.raw")
        let layout = RawLayout(width: 1920, height: 1080, bytesPerLine: 2400,
                               format: RawFormat(cfa: .rggb, bitsPerSample: 10, packing: .csi2Packed10))
        try #require(frame.count == layout.byteCount)
        let description = TestPhotos.description(blackLevels: [64, 64, 64, 64], whiteLevel: 1023)
        let dng = try EncodedDNG(frame: frame, layout: layout, description: description)

        let libRaw = try dng.rawIdentify()
        #expect(EncodedDNG.value(of: "Image size:", in: libRaw) == "1920 x 1080")
        #expect(EncodedDNG.value(of: "Filter pattern:", in: libRaw) == "RGGBRGGBRGGBRGGB")
        #expect(EncodedDNG.value(of: "cblack[6 .. 9]:", in: libRaw) == "64 64 64 64")
        #expect(try dng.dcrawLevels() == (black: 64, white: 1023))
        #expect(try dng.validationWarnings() == [])

        // LibRaw's whole rendering (half size) goes through too.
        let render = try ChildProcess.run(["dcraw_emu", "-h", dng.path])
        #expect(!render.allText.contains("Cannot") && !render.allText.contains("Unsupported"), "\(render.allText)")
        let ppm = try TemporaryFolder.read(dng.path + ".ppm")
        #expect(ppm.starts(with: Array("P6\n960 540\n".utf8)), "dcraw_emu wrote no 960×540 picture")

        let expected = Self.unpackRAW10(frame, width: 1920, height: 1080, bytesPerLine: 2400)
        #expect(Set(expected).count > 100, "the frame has a real scene in it")
        let decoded = try dng.libRawSamples()
        #expect(decoded.width == 1920 && decoded.height == 1080)
        #expect(SampleDifference.first(decoded.samples, expected, width: 1920) == nil)
    }

    /// RAW10 read the plain way (4 high bytes, then one byte of the four low bit pairs),
    /// independent of `RawUnpacking`.
    static func unpackRAW10(_ frame: [UInt8], width: Int, height: Int, bytesPerLine: Int) -> [UInt16] {
        var samples = [UInt16](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let group = y * bytesPerLine + x / 4 * 5
                let low = UInt16(frame[group + 4]) >> (2 * UInt16(x % 4)) & 3
                samples[y * width + x] = UInt16(frame[group + x % 4]) << 2 | low
            }
        }
        return samples
    }
}
