import CV4L2
import Foundation
import ReflexCore
import ReflexHardware
import ReflexISP
import Synchronization
import Testing
@testable import ReflexRuntime

/// The sensor thread as the camera runs it, on the simulated sensor: the session, the
/// exposure controller, the sinks, one mailbox in and one report out.
@Suite("The sensor pipeline")
struct SensorPipelineTests {
    /// The whole path on the simulated sensor: the screen asks for 2×, the camera's zoom
    /// control is set, and the frames say they are 2× already (the ISP crops nothing); 6×
    /// is the control's 4× and the frames say so.
    @Test func theSensorThreadSetsTheZoomControlAndFramesSayWhatTheyHave() throws {
        let lines = Mutex<[String]>([])
        let stepped = SteppedPipeline(binned: false, log: { line in lines.withLock { $0.append(line) } })
        let stream = stepped.pipeline
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
        /// The first frame labelled `zoom`, and the magnification its picture has (nil if none
        /// came in 30 frames: the control's delay is two).
        func waitForFrame(zoom: Double) -> Double? {
            var seen: Double?
            // (A frame too like two magnifications says nothing: the next one is looked at.)
            _ = stepped.step(until: {
                if let frame = stream.preview.takeFrame(), frame.sensorZoom == zoom { seen = apparentZoom(frame) }
                return seen != nil
            }, frames: 30)
            return seen
        }
        // The label is the picture's: the first frame said to be at a zoom looks like the
        // scene at that zoom (a label ahead of the lens, or behind it, would fail here).
        #expect(waitForFrame(zoom: 1) == 1)
        stream.mailbox.requestZoom(2)
        #expect(waitForFrame(zoom: 2) == 2)
        stream.mailbox.requestZoom(6)
        #expect(waitForFrame(zoom: 4) == 4)
        stream.mailbox.requestZoom(1)
        #expect(waitForFrame(zoom: 1) == 1)
        let log = lines.withLock { $0.joined(separator: "\n") }
        #expect(log.contains("zoom control \"Zoom, Absolute\" 100…400, 1× at 100: up to 4.0× on the camera"), "\(log)")
    }

    /// The whole sensor thread on the simulated CSI sensor: a 1/4 s shutter set by hand
    /// lengthens the frames; back in Auto the exposure returns within the preview's frame at
    /// once, at the same brightness, not when the scene next changes.
    @Test func backInAutoALongExposureReturnsToTheFrameTime() throws {
        var pro = CameraSettings()
        pro.mode = .pro
        pro.shutter = .manual(ShutterSpeed(1, 4))
        let lines = Mutex<[String]>([])
        let stepped = SteppedPipeline(settings: pro, style: .exposureInLines, binned: false,
                                      log: { line in lines.withLock { $0.append(line) } })
        let stream = stepped.pipeline
        stream.start()
        defer { stream.stop() }
        func waitForLog(_ text: String) -> Bool {
            stepped.step(until: { lines.withLock { $0.contains { $0.contains(text) } } }, frames: 60)
        }
        #expect(waitForLog("camera: manual shutter 1/4 → exposure 1/4 s"))
        #expect(stepped.step(frames: 3), "a few long frames")
        stream.mailbox.send(CameraSettings())
        #expect(waitForLog("camera: auto shutter, the exposure back within the preview's frame → exposure 1/30 s"),
                "\(lines.withLock { $0.joined(separator: "\n") })")
    }
}
