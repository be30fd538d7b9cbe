import ReflexTestSupport
import Foundation
import ReflexHardware
import Testing

/// The whole camera on the headless display: the realtime loop, the ISP and the interface
/// together, read back from the PNG the display writes.
@Suite("The camera on the headless display", .tags(.externalTool))
struct ScreenCommandTests {
    final class RunningCamera {
        let process = Process()
        let state: StateFolder
        let pngFolder: String
        private let err = Pipe()
        private(set) var log = ""

        init(_ extraArguments: [String], storage: String? = nil, environment: [String: String] = [:],
             state: StateFolder = StateFolder()) throws {
            self.state = state
            pngFolder = state.path + "/png"
            let folder = BuildProducts.folder
            process.executableURL = folder.appendingPathComponent("reflex")
            // The state folder stands in for the card unless the test says otherwise.
            process.arguments = ["run", "--state-dir", state.path, "--display", "png:" + pngFolder,
                                 "--storage", storage ?? state.path] + extraArguments
            process.standardError = err
            process.standardOutput = Pipe()
            if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
            try process.run()
        }

        deinit {
            if process.isRunning { process.terminate(); process.waitUntilExit() }
        }

        /// Waits until a frame.png satisfies `accept`; returns it. (`timeout` is a safety net
        /// for a camera that never draws it, not a figure: with every core busy and the other
        /// suites' processes beside it, a debug build's camera has taken over 90 s to start.)
        func waitForFrame(timeout: Double = 300, _ accept: (Frame) -> Bool) -> Frame? {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline && process.isRunning {
                if let image = try? PNGImage.read(pngFolder + "/frame.png") {
                    let frame = Frame(pixels: image.pixels, width: image.width, height: image.height)
                    if accept(frame) { return frame }
                }
                Thread.sleep(forTimeInterval: 0.25)
            }
            return nil
        }

        func stop() -> String {
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
            log += String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            return log
        }
    }

    struct Frame {
        let pixels: [UInt32]
        let width: Int
        let height: Int

        func rgb(_ x: Int, _ y: Int) -> (Int, Int, Int) {
            // (Outside a picture smaller than the one asked about: black, a failed check, not a trap.)
            guard (0..<width).contains(x), (0..<height).contains(y), y * width + x < pixels.count else { return (0, 0, 0) }
            let p = pixels[y * width + x]
            return (Int((p >> 16) & 0xFF), Int((p >> 8) & 0xFF), Int(p & 0xFF))
        }

        func luma(_ x: Int, _ y: Int) -> Int {
            let (r, g, b) = rgb(x, y)
            return (r * 3 + g * 6 + b) / 10
        }

        /// Mean luma of a rectangle.
        func meanLuma(x: Int, y: Int, width w: Int, height h: Int) -> Int {
            var sum = 0
            for yy in y..<(y + h) { for xx in x..<(x + w) { sum += luma(xx, yy) } }
            return sum / (w * h)
        }

        /// Pixels in a rectangle brighter than `level` (text on a dark surface).
        func brightPixels(x: Int, y: Int, width w: Int, height h: Int, above level: Int = 200) -> Int {
            var count = 0
            for yy in y..<(y + h) { for xx in x..<(x + w) where luma(xx, yy) > level { count += 1 } }
            return count
        }
    }

    @Test func theSimulatedCameraRunsWholeOnTheHeadlessDisplay() throws {
        let camera = try RunningCamera(["--sensor", "sim"])
        // The live screen: a picture in the viewfinder, the HUD bar along the top.
        let frame = camera.waitForFrame { $0.meanLuma(x: 200, y: 200, width: 400, height: 300) > 40 }
        #expect(frame != nil, "a frame with a picture appears in frame.png")
        if let frame {
            #expect(frame.width == 1280 && frame.height == 800)
            // The HUD bar darkens the picture under it and carries white text (ISO, shutter).
            #expect(frame.meanLuma(x: 300, y: 44, width: 400, height: 16) < frame.meanLuma(x: 300, y: 200, width: 400, height: 16))
            #expect(frame.brightPixels(x: 16, y: 30, width: 220, height: 28) > 100, "the exposure readout is drawn")
            // The Auto segment of the mode toggle is lit (Auto is the first start's mode).
            #expect(frame.luma(1100, 748) > 220)
        }
        let stats = try ReflexRun(["stats", "--state-dir", camera.state.path])
        #expect(stats.status == 0, "\(stats.errors)")
        #expect(stats.output.contains(" fps, frame time p50 "), "\(stats.output)")
        #expect(stats.output.contains("missed vblanks"))
        // Start-up, measured to the first flip itself: in the statistics and in the log.
        #expect(stats.output.firstMatch(of: /first frame on the panel \d+ ms after start/) != nil, "\(stats.output)")
        let log = camera.stop()
        #expect(log.contains("display: headless 1280x800 at 60 Hz"))
        #expect(log.firstMatch(of: /display: first frame on the panel \d+ ms after start \([\d.]+ s after the kernel started\)/) != nil,
                "\(log)")
        #expect(log.contains("stopping (SIGTERM)"))
        #expect(!FileManager.default.fileExists(atPath: camera.state.path + "/reflex.pid"), "the pid file goes with the camera")
    }

    @Test func withoutACameraItSaysSoAndKeepsRunning() throws {
        let empty = StateFolder()
        try FileManager.default.createDirectory(atPath: empty.path, withIntermediateDirectories: true)
        let camera = try RunningCamera(["--video-dir", empty.path])
        // The failure screen: the screen colour everywhere but the message in the middle.
        let frame = camera.waitForFrame { frame in
            let (r, g, b) = frame.rgb(20, 20)
            return (r, g, b) == (0x0F, 0x10, 0x12)
        }
        #expect(frame != nil, "the No camera screen appears")
        if let frame {
            #expect(frame.brightPixels(x: 440, y: 400, width: 400, height: 50) > 300, "its title is written")
            #expect(frame.brightPixels(x: 0, y: 0, width: 1280, height: 64) == 0, "no HUD over the message")
        }
        #expect(camera.process.isRunning)
        let log = camera.stop()
        #expect(log.contains("camera: none found; waiting for one"))
    }

    @Test func withoutACardItSaysSoOverTheLivePicture() throws {
        let camera = try RunningCamera(["--sensor", "sim"], storage: "/nonexistent/card")
        // The banner: the accent border and its words, below the HUD, over a live picture.
        let frame = camera.waitForFrame { frame in
            let (r, g, b) = frame.rgb(640, 81)
            return r > 200 && (130...210).contains(g) && b < 80 && frame.meanLuma(x: 200, y: 300, width: 400, height: 200) > 40
        }
        #expect(frame != nil, "the Storage card missing banner appears over the picture")
        if let frame {
            #expect(frame.brightPixels(x: 440, y: 95, width: 400, height: 30) > 200, "its title is written")
        }
        _ = camera.stop()
    }

    @Test func statsWithoutARunningCameraIsAClearError() throws {
        let state = StateFolder()
        let run = try ReflexRun(["stats", "--state-dir", state.path])
        #expect(run.status == 69)
        #expect(run.errors.contains("no running camera found"))
    }
}
