import ReflexTestSupport
import Foundation
import Testing

/// A board's own person detector (analysis.conf) is the one the camera runs.
@Suite("The board's person detector", .tags(.externalTool))
struct BoardDetectorTests {
    /// A board that names its own person detector (analysis.conf): the camera runs it.
    @Test func theBoardsOwnDetectorIsTheOneThatRuns() throws {
        let board = TemporaryFolder()
        try Data(TinyYOLOXModel.bytes(side: 320)).write(to: URL(fileURLWithPath: board.path + "/tiny-yolox.onnx"))
        try Data("model = tiny-yolox.onnx\ninput = 320\n".utf8).write(to: URL(fileURLWithPath: board.path + "/analysis.conf"))
        let camera = try ScreenCommandTests.RunningCamera(["--sensor", "sim", "--board", board.path])
        // (The analysis thread opens its detector first thing; stopping waits for it.)
        let shown = camera.waitForFrame { $0.meanLuma(x: $0.width / 4, y: $0.height / 4, width: $0.width / 2, height: $0.height / 2) > 20 }
        let log = camera.stop()
        #expect(shown != nil, "the camera showed its picture: \(log)")
        #expect(log.contains("auto-zoom: person detector \(board.path)/tiny-yolox.onnx ready (input 320 px)"), "\(log)")
        #expect(log.contains("board: auto-zoom's person detector from \(board.path)/analysis.conf"), "\(log)")
    }
}
