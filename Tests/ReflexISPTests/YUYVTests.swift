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
}
