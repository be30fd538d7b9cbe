import ReflexCore
import Glibc
import Testing
@testable import ReflexISP

/// The repository's Tests/Data/raw (found from this file, wherever the tests run from).
let rawTestData: String = {
    var path = #filePath
    for _ in 0..<2 { path = String(path[..<path.lastIndex(of: "/")!]) }
    return path + "/Data/raw"
}()

/// A frame of Tests/Data/raw, whole.
func testDataFile(_ name: String) -> [UInt8]? {
    for folder in [rawTestData] {
        if let file = fopen(folder + "/" + name, "rb") {
            defer { fclose(file) }
            fseek(file, 0, SEEK_END)
            let size = ftell(file)
            fseek(file, 0, SEEK_SET)
            var bytes = [UInt8](repeating: 0, count: size)
            guard fread(&bytes, 1, size, file) == size else { return nil }
            return bytes
        }
    }
    return nil
}

@Suite("The ISP on real sensor frames")
struct RealFrameTests {
    /// The IMX219 frame (1920x1080 CSI-2 RAW10, RGGB, black at 64), its layout, and an ISP
    /// set for it with white balance (1.9, 1, 1.6) and `digitalGain`.
    static func imx219Frame(digitalGain: Double, maximumOutputWidth: Int) throws
        -> (bytes: [UInt8], layout: RawLayout, parameters: ISPParameters, isp: PreviewISP) {
        let frame = try #require(testDataFile("imx219_1920x1080_SRGGB10_CSI2P.raw"),
                                 "Tests/Data/raw/imx219_1920x1080_SRGGB10_CSI2P.raw is missing")
        let format = RawFormat(cfa: .rggb, bitsPerSample: 10, packing: .csi2Packed10)
        let parameters = ISPParameters(blackLevel: 64, whiteLevel: 1023, whiteBalance: SIMD3(1.9, 1, 1.6),
                                       digitalGain: digitalGain)
        let isp = PreviewISP(maximumSourceWidth: 1920, maximumSourceHeight: 1080, maximumOutputWidth: maximumOutputWidth)
        isp.setParameters(parameters, format: format)
        return (frame, RawLayout(width: 1920, height: 1080, bytesPerLine: 2400, format: format), parameters, isp)
    }

    /// The IMX219 frame (CSI-2 RAW10) through the ISP at tile resolution, against an
    /// independent double-precision decode of every tile: no pixel more than 2 levels off,
    /// on average well under one.
    @Test func imx219MatchesAReferenceDecode() throws {
        let (frame, layout, parameters, isp) = try Self.imx219Frame(digitalGain: 3, maximumOutputWidth: 960)
        var output = [UInt32](repeating: 0, count: 960 * 540)
        frame.withUnsafeBytes { raw in
            output.withUnsafeMutableBufferPointer { out in
                isp.renderBayer(raw.baseAddress!, layout: layout, into: out.baseAddress!, outputWidth: 960,
                                outputHeight: 540, outputStride: 960, destination: PixelRect(x: 0, y: 0, width: 960, height: 540))
            }
        }
        var row0 = [UInt16](repeating: 0, count: 1920), row1 = row0
        var worst = 0
        var total = 0
        frame.withUnsafeBytes { raw in
            for tileRow in stride(from: 0, to: 540, by: 3) {  // every third row keeps the test quick
                row0.withUnsafeMutableBufferPointer {
                    RawUnpacking.unpack(row: raw.baseAddress! + tileRow * 2 * 2400, packing: .csi2Packed10, first: 0, count: 1920, into: $0.baseAddress!)
                }
                row1.withUnsafeMutableBufferPointer {
                    RawUnpacking.unpack(row: raw.baseAddress! + (tileRow * 2 + 1) * 2400, packing: .csi2Packed10, first: 0, count: 1920, into: $0.baseAddress!)
                }
                for tile in 0..<960 {
                    let expected = referencePixel(red: Double(row0[2 * tile]),
                                                  green: (Double(row0[2 * tile + 1]) + Double(row1[2 * tile])) / 2,
                                                  blue: Double(row1[2 * tile + 1]), parameters)
                    let got = channels(output[tileRow * 960 + tile])
                    let error = max(abs(got.0 - expected.0), abs(got.1 - expected.1), abs(got.2 - expected.2))
                    worst = max(worst, error)
                    total += error
                }
            }
        }
        let mean = Double(total) / Double(180 * 960)
        #expect(worst <= 2, "largest difference \(worst) levels")
        #expect(mean < 0.5, "mean difference \(mean) levels")
    }

    @Test func statisticsOfTheChartFrame() throws {
        let frame = try #require(testDataFile("openisp_1920x1080_10bit_RGGB_u16le.raw"),
                                 "Tests/Data/raw/openisp_1920x1080_10bit_RGGB_u16le.raw is missing")
        let format = RawFormat(cfa: .rggb, bitsPerSample: 10, packing: .unpacked16)
        let layout = RawLayout(width: 1920, height: 1080, format: format)
        let isp = PreviewISP(maximumSourceWidth: 1920, maximumSourceHeight: 1080, maximumOutputWidth: 16)
        isp.setParameters(ISPParameters(blackLevel: 0, whiteLevel: 1020), format: format)
        var statistics = FrameStatistics()
        frame.withUnsafeBytes { isp.collectStatistics($0.baseAddress!, layout: layout, gridStep: 4, into: &statistics) }
        #expect(statistics.samples == 240 * 135)
        #expect(statistics.histogram.reduce(0, +) == UInt32(statistics.samples))
        // Computed independently: the same grid of tiles, summed here.
        var red: Int64 = 0, green: Int64 = 0, blue: Int64 = 0
        func sample(_ x: Int, _ y: Int) -> Int64 { Int64(frame[(y * 1920 + x) * 2]) | Int64(frame[(y * 1920 + x) * 2 + 1]) << 8 }
        for tileRow in stride(from: 0, to: 540, by: 4) {
            for tile in stride(from: 0, to: 960, by: 4) {
                let (x, y) = (tile * 2, tileRow * 2)
                red += sample(x, y)
                green += (sample(x + 1, y) + sample(x, y + 1)) / 2
                blue += sample(x + 1, y + 1)
            }
        }
        #expect(statistics.sumRed == red && statistics.sumGreen == green && statistics.sumBlue == blue)
        let mean = statistics.meanRGB
        #expect(mean.y > 0.2 && mean.y < 0.9, "a chart on white is bright: \(mean)")
    }

    /// The histogram is of displayed luma: Rec. 709 weights of the white-balanced linear
    /// channels, then sRGB. Computed here in doubles from the same tiles; bins may differ only
    /// where a tile's luma falls within rounding of a bin's edge.
    @Test func histogramOfTheIMX219FrameIsItsDisplayedLuma() throws {
        let (frame, layout, _, isp) = try Self.imx219Frame(digitalGain: 1.3, maximumOutputWidth: 16)
        var statistics = FrameStatistics()
        frame.withUnsafeBytes { isp.collectStatistics($0.baseAddress!, layout: layout, gridStep: 4, into: &statistics) }
        var expected = [Int](repeating: 0, count: FrameStatistics.histogramBins)
        func sample(_ x: Int, _ y: Int) -> Double {
            let group = y * 2400 + x / 4 * 5
            return Double(Int(frame[group + x % 4]) << 2 | Int(frame[group + 4]) >> (2 * (x % 4)) & 3)
        }
        func linear(_ value: Double, _ gain: Double) -> Double {
            min(max((value - 64) / (1023 - 64) * gain * 1.3, 0), 1)
        }
        for tileRow in stride(from: 0, to: 540, by: 4) {
            for tile in stride(from: 0, to: 960, by: 4) {
                let (x, y) = (tile * 2, tileRow * 2)
                let luma = 0.2126 * linear(sample(x, y), 1.9) + 0.7152 * linear(sample(x + 1, y), 1)
                    + 0.0722 * linear(sample(x + 1, y + 1), 1.6)
                let displayed = (PreviewISP.sRGBEncode(luma) * 255).rounded()  // the 8-bit displayed value
                expected[min(Int(displayed) / 4, FrameStatistics.histogramBins - 1)] += 1
            }
        }
        let moved = zip(statistics.histogram, expected).map { abs(Int($0) - $1) }.reduce(0, +)
        #expect(statistics.histogram.reduce(0, +) == UInt32(statistics.samples))
        #expect(moved < statistics.samples / 50, "\(moved) of \(statistics.samples) tiles in another bin")
        #expect(expected.filter { $0 > 0 }.count > 10, "the frame spreads over the histogram")
    }
}
