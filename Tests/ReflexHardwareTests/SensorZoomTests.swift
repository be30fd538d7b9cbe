import CV4L2
import Foundation
import ReflexCore
import ReflexISP
import Synchronization
import Testing
@testable import ReflexHardware

/// Zoom goes to the camera's own zoom control where it has one; the ISP crops for the rest.
@Suite("The camera's own zoom")
struct SensorZoomTests {
    @Test func aFactorBecomesTheControlsValueAndTheRestIsLeftToTheISP() throws {
        let zoom = try #require(SensorZoom(device: SimulatedCamera.info, calibration: .simulated))
        #expect(zoom.unity == 100 && zoom.maximumFactor == 4)
        #expect(zoom.setting(for: 1) == (100, 1))
        #expect(zoom.setting(for: 2.37) == (237, 2.37))
        #expect(zoom.setting(for: 2.3) == (230, 2.3), "2.3 × 100 is 229.99… in binary")
        #expect(zoom.setting(for: 8) == (400, 4), "beyond the lens the ISP crops 2× more")
        #expect(zoom.setting(for: 0.5) == (100, 1))
    }

    @Test func aControlWithoutAKnownScaleIsNotUsedUnlessTheBoardGivesIt() throws {
        let unscaled = CaptureDeviceInfo(
            path: "x", driver: "x", card: "x", busInfo: "x", formats: [],
            controls: [.init(id: REFLEX_V4L2_CID_ZOOM_ABSOLUTE, name: "Zoom, Absolute", type: "int",
                             minimum: 0, maximum: 10, step: 1, defaultValue: 0)])
        #expect(SensorZoom(device: unscaled, calibration: SensorCalibration()) == nil)
        var calibration = SensorCalibration()
        calibration.zoomUnity = 2
        let zoom = try #require(SensorZoom(device: unscaled, calibration: calibration))
        #expect(zoom.setting(for: 3) == (6, 3))
        #expect(try SensorCalibration.parse("zoom-unity = 100\n").get().zoomUnity == 100)
    }

    /// The simulated sensor's controls answer in its own frames, as the sequence numbers
    /// count them: a zoom set after frame S shows from frame S + 3 however many of the frames
    /// between were taken off the queue (a slow reader misses the sensor's ticks).
    @Test(arguments: [[1, 1, 1], [3], [1, 2], [100]])
    func theSimulatedZoomAnswersAfterItsFramesNotItsReads(_ ticks: [UInt64]) throws {
        let camera = SimulatedCamera()
        try camera.setControl(REFLEX_V4L2_CID_ZOOM_ABSOLUTE, to: 200)
        var frames: UInt64 = 0
        for (i, tick) in ticks.enumerated() {
            _ = camera.advanceControls(byFrames: tick)
            frames += tick
            let expected = frames >= 3 ? 2.0 : 1.0
            #expect(camera.scene.zoom == expected, "after \(frames) frames (read \(i + 1))")
        }
        // No frame made, nothing moves.
        try camera.setControl(REFLEX_V4L2_CID_ZOOM_ABSOLUTE, to: 300)
        _ = camera.advanceControls(byFrames: 0)
        #expect(camera.scene.zoom == 2)
    }

    /// The whole path on the simulated sensor: the screen asks for 2×, the camera's zoom
    /// control is set, and the frames say they are 2× already (the ISP crops nothing); 6×
    /// is the control's 4× and the frames say so.
    @Test func theSensorThreadSetsTheZoomControlAndFramesSayWhatTheyHave() throws {
        let exchange = PreviewFrameExchange()
        let lines = Mutex<[String]>([])
        let stream = SensorStream(settings: CameraSettings(), calibration: .simulated, source: .simulated(.absoluteExposure),
                                  exchange: exchange, log: { line in lines.withLock { $0.append(line) } })
        stream.start()
        defer { stream.stop() }

        /// The mean green of each 8×8 block above black (blocks: the sensor's noise averages out).
        func blockGreens(_ samples: UnsafePointer<UInt16>, width: Int, height: Int, rowLength: Int) -> [Double] {
            var blocks: [Double] = []
            for blockY in 0..<height / 8 {
                for blockX in 0..<width / 8 {
                    var sum = 0.0
                    // The greens of the block's tiles (RGGB: odd columns of even rows).
                    for y in stride(from: blockY * 8, to: blockY * 8 + 8, by: 2) {
                        for x in stride(from: blockX * 8 + 1, to: blockX * 8 + 8, by: 2) { sum += Double(samples[y * rowLength + x]) }
                    }
                    blocks.append(sum / 16 - Double(SimulatedScene.blackLevel))
                }
            }
            return blocks
        }
        /// Block-to-block changes along rows: the cards' edges and the stripes, without the
        /// smooth gradient every magnification shares.
        func edges(_ blocks: [Double]) -> [Double] {
            let across = SimulatedCamera.width / 8
            return blocks.indices.compactMap { $0 % across == 0 ? nil : blocks[$0] - blocks[$0 - 1] }
        }
        /// How alike two pictures are, whatever their exposure: the normalised correlation.
        func correlation(_ a: [Double], _ b: [Double]) -> Double {
            let meanA = a.reduce(0, +) / Double(a.count), meanB = b.reduce(0, +) / Double(b.count)
            var ab = 0.0, aa = 0.0, bb = 0.0
            for i in a.indices {
                ab += (a[i] - meanA) * (b[i] - meanB)
                aa += (a[i] - meanA) * (a[i] - meanA)
                bb += (b[i] - meanB) * (b[i] - meanB)
            }
            return ab / max((aa * bb).squareRoot(), 1e-12)
        }
        // The scene without noise at each magnification the test asks for.
        let layout = RawLayout(width: SimulatedCamera.width, height: SimulatedCamera.height, format: SimulatedScene.format)
        var references: [(zoom: Double, edges: [Double])] = []
        var clean = [UInt16](repeating: 0, count: layout.width * layout.height)
        for zoom in [1.0, 2, 4] {
            var scene = SimulatedScene(noise: false)
            scene.zoom = zoom
            clean.withUnsafeMutableBytes { buffer in
                scene.render(into: buffer.baseAddress!, layout: layout, time: 0,
                             setting: ExposureSetting(exposure: 0.005, analogGain: 1), frameNumber: 0)
            }
            references.append((zoom, edges(clean.withUnsafeBufferPointer {
                blockGreens($0.baseAddress!, width: layout.width, height: layout.height, rowLength: layout.width)
            })))
        }
        /// The magnification whose clean picture the frame is clearly most like (nil when
        /// two are about as alike: the ball, which moves, is not in the references).
        func apparentZoom(_ frame: PreviewFrame) -> Double? {
            let seen = edges(blockGreens(frame.bytes!.assumingMemoryBound(to: UInt16.self), width: frame.width,
                                         height: frame.height, rowLength: frame.bytesPerLine / 2))
            let ranked = references.map { (zoom: $0.zoom, likeness: correlation(seen, $0.edges)) }.sorted { $0.likeness > $1.likeness }
            return ranked[0].likeness > ranked[1].likeness + 0.2 ? ranked[0].zoom : nil
        }
        /// The first frame labelled `zoom`, and the magnification its picture has.
        func waitForFrame(zoom: Double) -> Double? {
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline {
                // (A frame too like two magnifications says nothing: the next one is looked at.)
                if let frame = exchange.takeFrame(), frame.sensorZoom == zoom, let seen = apparentZoom(frame) { return seen }
                Thread.sleep(forTimeInterval: 0.01)
            }
            return nil
        }
        // The label is the picture's: the first frame said to be at a zoom looks like the
        // scene at that zoom (a label ahead of the lens, or behind it, would fail here).
        #expect(waitForFrame(zoom: 1) == 1)
        exchange.requestZoom(2)
        #expect(waitForFrame(zoom: 2) == 2)
        exchange.requestZoom(6)
        #expect(waitForFrame(zoom: 4) == 4)
        exchange.requestZoom(1)
        #expect(waitForFrame(zoom: 1) == 1)
        let log = lines.withLock { $0.joined(separator: "\n") }
        #expect(log.contains("zoom control \"Zoom, Absolute\" 100…400, 1× at 100: up to 4.0× on the camera"), "\(log)")
    }
}
