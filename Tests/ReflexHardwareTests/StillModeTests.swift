import ReflexTestSupport
import ReflexCore
import ReflexHardware
import ReflexISP
import ReflexSystem
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The session's two ways to full-resolution stills, on the simulated sensor (binned
/// 640x360 preview, 1280x720 full resolution).
@Suite struct StillModeTests {
    static func calibration(_ source: StillSource) -> SensorCalibration {
        var calibration = SensorCalibration.simulated
        (calibration.previewWidth, calibration.previewHeight) = (SimulatedCamera.binnedWidth, SimulatedCamera.binnedHeight)
        (calibration.stillWidth, calibration.stillHeight) = (SimulatedCamera.width, SimulatedCamera.height)
        calibration.stillsBy = source
        return calibration
    }

    @Test func aBoardThatStreamsItsStillSizeStreamsIt() throws {
        let session = CameraSession(choice: CameraChoice(source: .simulated(.absoluteExposure)),
                                    calibration: Self.calibration(.stream), log: { _ in })
        #expect(try session.start())
        defer { session.stop() }
        #expect(session.mode?.width == SimulatedCamera.width && session.mode?.height == SimulatedCamera.height)
    }

    @Test func aSwitchTakesOneFrameOfTheStillModeAndStreamsThePreviewAgain() throws {
        // The sensor makes a frame whenever the last was taken, on its own clock: the wait for
        // the still mode's frame counts frames, however slowly the host takes them.
        let stepper = SensorStepper()
        let session = CameraSession(choice: CameraChoice(source: .simulated(.absoluteExposure, pace: .stepped(stepper))),
                                    calibration: Self.calibration(.modeSwitch), clock: .manual(stepper.clock), log: { _ in })
        #expect(try session.start())
        stepper.startFollowing()
        defer { stepper.stopFollowing(); session.stop() }
        #expect(session.mode?.width == SimulatedCamera.binnedWidth, "the preview's mode streams")
        let streams = session.streamCount
        let copy = FrameCopy()
        let exposure = ExposureSetting(exposure: 1.0 / 60, analogGain: 2)
        let inHand = try session.captureStill(width: SimulatedCamera.width, height: SimulatedCamera.height, exposure: exposure,
                                              parameters: nil, sensorZoom: 1, skipping: 1, into: copy)
        #expect(copy.mode?.width == SimulatedCamera.width && copy.mode?.height == SimulatedCamera.height)
        #expect(copy.byteCount == SimulatedCamera.width * SimulatedCamera.height * 2)
        #expect(copy.sequence >= 2, "the first frame skipped (a slow host drops more)")
        #expect(abs(copy.exposure.exposure - 1.0 / 60) < 1e-4 && abs(copy.exposure.analogGain - 2) < 0.1,
                "the preview's exposure, in the still mode")
        #expect(inHand > 0)
        // Back in the preview's mode, a new stream, the same exposure.
        #expect(session.mode?.width == SimulatedCamera.binnedWidth && session.streamCount == streams + 1)
        let current = try session.currentExposure()
        #expect(abs(current.exposure - 1.0 / 60) < 1e-4 && abs(current.analogGain - 2) < 0.1)
        // (Its next frame comes when the host gets to it: waited for, a minute at most.)
        var frame: CapturedFrame?
        let patience = monotonicSeconds() + 60
        while frame == nil && monotonicSeconds() < patience {
            frame = try session.nextFrame()
            if frame == nil { usleep(1_000) }
        }
        let next = try #require(frame, "the preview streams again")
        #expect(next.bytes.count == SimulatedCamera.binnedWidth * SimulatedCamera.binnedHeight * 2)
        try session.giveBack(next)
    }
}
