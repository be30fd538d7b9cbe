import ReflexTestSupport
import Foundation
import Testing

/// A board folder whose every file is out of range (a board maker's typo, a file from a
/// newer Reflex, a card image half-written): each file is said unusable in the log, with
/// what was wrong and what the camera does instead, and the camera runs on its defaults.
@Suite("A board folder out of range", .tags(.externalTool))
struct BadBoardTests {
    static let files: [(path: String, text: String)] = [
        ("sensor.conf", "base-iso = -100\nblack-level = 99999999999\n"),
        ("display.conf", "dpi = 5\nrotation = 45\n"),
        ("controls.conf", "shutter-key = 99999\nencoder.9 = nothing\n"),
        ("video.conf", "size = 8k\n"),
        ("gps.conf", "port = 70000\n"),
        ("lenses/tele.conf", "camera = imx708\nmagnification = 1000\n"),
        ("analysis.conf", "model = detector.tflite\n"),
    ]

    /// The simulated sensor brings its own calibration: the panel's, controls', GPS's and
    /// movies' files are what it reads of the board.
    @Test func everyFileIsSaidUnusableAndTheCameraRunsOnItsDefaults() throws {
        let board = try Self.badBoard()
        let camera = try ScreenCommandTests.RunningCamera(["--sensor", "sim", "--board", board.path])
        let shown = camera.waitForFrame { frame in
            // The simulated scene, not a black screen: the camera got as far as its picture.
            frame.meanLuma(x: frame.width / 4, y: frame.height / 4, width: frame.width / 2, height: frame.height / 2) > 20
        }
        let log = camera.stop()
        #expect(shown != nil, "the camera showed its picture: \(log)")
        for file in ["display.conf", "controls.conf", "gps.conf", "video.conf", "analysis.conf"] {
            #expect(log.contains("board: \(board.path)/\(file) is not usable ("), "\(file): \(log)")
        }
        #expect(log.contains("; the first connected display, upright") && log.contains("; the usual keys and two encoders")
                && log.contains("; gpsd at 127.0.0.1:2947") && log.contains("; movies at 1080p30")
                && log.contains("; auto-zoom runs the shipped person detector"), "\(log)")
    }

    /// A camera board reads its sensor's calibration and lenses: without a camera here, the
    /// camera still reads them at start, says each unusable, and waits for a camera.
    @Test func theSensorsAndLensesFilesAreSaidUnusableToo() throws {
        let board = try Self.badBoard()
        let camera = try ScreenCommandTests.RunningCamera(["--board", board.path, "--video-dir", board.path + "/no-cameras"])
        let shown = camera.waitForFrame { frame in frame.rgb(20, 20) == (0x0F, 0x10, 0x12) }
        #expect(camera.process.isRunning)
        let log = camera.stop()
        #expect(shown != nil, "the No camera screen: \(log)")
        #expect(log.contains("board: \(board.path)/sensor.conf is not usable (") && log.contains("the sensor runs uncalibrated"),
                "\(log)")
        #expect(log.contains("board: \(board.path)/lenses/tele.conf is not usable (") && log.contains("no tele lens"), "\(log)")
    }

    static func badBoard() throws -> TemporaryFolder {
        let board = TemporaryFolder()
        try FileManager.default.createDirectory(atPath: board.path + "/lenses", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: board.path + "/no-cameras", withIntermediateDirectories: true)
        for file in files {
            try Data(file.text.utf8).write(to: URL(fileURLWithPath: board.path + "/" + file.path))
        }
        return board
    }
}
