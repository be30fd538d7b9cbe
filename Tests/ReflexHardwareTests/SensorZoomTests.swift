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
}
