import Foundation
import ReflexCore
import ReflexISP
import ReflexTestSupport
import ReflexVision
import Testing

/// The ONNX path end to end through OpenCV: a YOLOX-shaped model the test writes
/// (`TinyYOLOXModel`) loads, the picture is letterboxed into its input, and its rows come back
/// as boxes in the picture's fractions.
@Suite("ONNX detector")
struct ONNXDetectorTests {
    static func modelFile(in folder: TemporaryFolder) throws -> String {
        let path = folder.path + "/tiny-yolox.onnx"
        try Data(TinyYOLOXModel.bytes(side: 416)).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aWhiteSquareIsFoundWhereItIs() throws {
        let folder = TemporaryFolder()
        let detector = try PersonDetector(model: DetectorModel(path: try Self.modelFile(in: folder), inputSide: 416))
        #expect(detector.networkInputSide == 416)
        // 832 x 624 goes in at half its size (416 x 312, grey below): the square at (256, 128),
        // 64 px, is the cell (4, 2) of the 32-pixel grid.
        let (width, height) = (832, 624)
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for y in 128..<192 { for x in 256..<320 { for c in 0..<3 { rgb[(y * width + x) * 3 + c] = 255 } } }
        let found = try rgb.withUnsafeBufferPointer {
            try detector.detect(rgb: $0.baseAddress!, width: width, height: height, stride: width * 3)
        }
        try #require(found.count == 1, "\(found)")
        let box = found[0].box, expected = FractionalBox(x: 256.0 / 832, y: 128.0 / 624, width: 64.0 / 832, height: 64.0 / 624)
        #expect(box.overlap(expected) > 0.98, "\(box) against \(expected)")
        #expect(found[0].confidence > 0.99)
        #expect(detector.forwardMilliseconds > 0)
    }

    @Test func aFileThatIsNoModelIsAClearError() throws {
        let folder = TemporaryFolder()
        let path = folder.path + "/broken.onnx"
        try Data("not a model".utf8).write(to: URL(fileURLWithPath: path))
        #expect {
            try PersonDetector(model: DetectorModel(path: path))
        } throws: { "\($0)".contains("OpenCV cannot load \(path)") }
        #expect {
            try PersonDetector(model: DetectorModel(path: folder.path + "/missing.onnx"))
        } throws: { "\($0)".contains("no person detector model at") }
    }
}
