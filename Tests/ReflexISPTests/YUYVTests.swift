import ReflexCore
import Testing
@testable import ReflexISP

@Suite("The preview of YUYV cameras")
struct YUYVTests {
    /// A flat YUYV frame of one colour.
    func frame(width: Int, height: Int, y: UInt8, u: UInt8, v: UInt8) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: width * height * 2)
        for i in stride(from: 0, to: bytes.count, by: 4) { (bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]) = (y, u, y, v) }
        return bytes
    }

    func render(_ bytes: [UInt8], width: Int, height: Int) -> (Int, Int, Int) {
        let isp = PreviewISP(maximumSourceWidth: width, maximumSourceHeight: height, maximumOutputWidth: width)
        var output = [UInt32](repeating: 0, count: width * height)
        bytes.withUnsafeBytes { raw in
            output.withUnsafeMutableBufferPointer { out in
                isp.renderYUYV(raw.baseAddress!, width: width, height: height, bytesPerLine: width * 2, into: out.baseAddress!,
                               outputWidth: width, outputHeight: height, outputStride: width,
                               destination: PixelRect(x: 0, y: 0, width: width, height: height))
            }
        }
        return channels(output[(height / 2) * width + width / 2])
    }

    @Test func bt601ColoursComeOutRight() {
        // Limited-range BT.601: black 16, white 235, and the primaries of a colour bar chart.
        let cases: [((UInt8, UInt8, UInt8), (Int, Int, Int))] = [
            ((16, 128, 128), (0, 0, 0)), ((235, 128, 128), (255, 255, 255)), ((126, 128, 128), (128, 128, 128)),
            ((82, 90, 240), (255, 0, 0)), ((145, 54, 34), (0, 255, 0)), ((41, 240, 110), (0, 0, 255)),
        ]
        for ((y, u, v), expected) in cases {
            let got = render(frame(width: 32, height: 16, y: y, u: u, v: v), width: 32, height: 16)
            #expect(abs(got.0 - expected.0) <= 2 && abs(got.1 - expected.1) <= 2 && abs(got.2 - expected.2) <= 2,
                    "Y \(y) U \(u) V \(v): got \(got), expected \(expected)")
        }
    }

    /// Digital zoom on a camera without a zoom control: the crop of a frame renders exactly as
    /// the same region given as a frame of its own would (only its blocks are converted).
    @Test func aCropRendersAsTheRegionAlone() {
        let (width, height) = (64, 32)
        // Luma rises across and down, chroma across, so every block differs.
        var bytes = [UInt8](repeating: 0, count: width * height * 2)
        for y in 0..<height {
            for x in stride(from: 0, to: width, by: 2) {
                let i = (y * width + x) * 2
                (bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]) =
                    (UInt8(16 + x * 3 + y), UInt8(64 + x * 2), UInt8(17 + x * 3 + y), UInt8(200 - x * 2))
            }
        }
        let crop = PixelRect.centred(in: width, height, scale: 0.5)
        #expect(crop == PixelRect(x: 16, y: 8, width: 32, height: 16))
        var region: [UInt8] = []
        for y in crop.y..<crop.y + crop.height { region += bytes[(y * width + crop.x) * 2 ..< (y * width + crop.x + crop.width) * 2] }
        let isp = PreviewISP(maximumSourceWidth: width, maximumSourceHeight: height, maximumOutputWidth: width)
        func render(_ frame: [UInt8], width frameWidth: Int, height frameHeight: Int, crop: PixelRect?) -> [UInt32] {
            var output = [UInt32](repeating: 0, count: width * height)
            frame.withUnsafeBytes { raw in
                output.withUnsafeMutableBufferPointer { out in
                    isp.renderYUYV(raw.baseAddress!, width: frameWidth, height: frameHeight, bytesPerLine: frameWidth * 2,
                                   crop: crop, into: out.baseAddress!, outputWidth: width, outputHeight: height,
                                   outputStride: width, destination: PixelRect(x: 0, y: 0, width: width, height: height))
                }
            }
            return output
        }
        let zoomed = render(bytes, width: width, height: height, crop: crop)
        let same = zoomed == render(region, width: crop.width, height: crop.height, crop: nil)
        let differs = zoomed != render(bytes, width: width, height: height, crop: nil)
        #expect(same, "the crop renders as the region alone")
        #expect(differs, "and not as the whole frame")
    }

    /// The same for a Motion-JPEG camera's half-size picture.
    @Test func aHalfSizePictureIsCroppedTheSameWay() {
        let (width, height) = (48, 24)
        var picture = [UInt32](repeating: 0, count: width * height)
        for y in 0..<height { for x in 0..<width { picture[y * width + x] = 0xFF00_0000 | UInt32(x * 5) << 16 | UInt32(y * 9) << 8 | UInt32(x + y) } }
        let crop = PixelRect.centred(in: width, height, scale: 0.5)
        var region: [UInt32] = []
        for y in crop.y..<crop.y + crop.height { region += picture[y * width + crop.x ..< y * width + crop.x + crop.width] }
        let isp = PreviewISP(maximumSourceWidth: width * 2, maximumSourceHeight: height * 2, maximumOutputWidth: 96)
        func render(_ pixels: [UInt32], width w: Int, height h: Int, crop: PixelRect?) -> [UInt32] {
            var output = [UInt32](repeating: 0, count: 96 * 48)
            pixels.withUnsafeBufferPointer { source in
                output.withUnsafeMutableBufferPointer { out in
                    isp.renderHalfSizeXRGB(source.baseAddress!, width: w, height: h, crop: crop, into: out.baseAddress!,
                                           outputWidth: 96, outputHeight: 48, outputStride: 96,
                                           destination: PixelRect(x: 0, y: 0, width: 96, height: 48))
                }
            }
            return output
        }
        let zoomed = render(picture, width: width, height: height, crop: crop)
        let same = zoomed == render(region, width: crop.width, height: crop.height, crop: nil)
        let differs = zoomed != render(picture, width: width, height: height, crop: nil)
        #expect(same && differs)
    }
}
