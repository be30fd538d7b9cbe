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

        func waitForFrame(zoom: Double) -> Bool {
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline {
                if let frame = exchange.takeFrame(), frame.sensorZoom == zoom { return true }
                Thread.sleep(forTimeInterval: 0.01)
            }
            return false
        }
        #expect(waitForFrame(zoom: 1))
        exchange.requestZoom(2)
        #expect(waitForFrame(zoom: 2))
        exchange.requestZoom(6)
        #expect(waitForFrame(zoom: 4))
        exchange.requestZoom(1)
        #expect(waitForFrame(zoom: 1))
        let log = lines.withLock { $0.joined(separator: "\n") }
        #expect(log.contains("zoom control \"Zoom, Absolute\" 100…400, 1× at 100: up to 4.0× on the camera"), "\(log)")
    }
}
