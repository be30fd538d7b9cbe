import CV4L2
import ReflexCore
import Foundation
import ReflexISP
import ReflexSystem
import Synchronization
import Testing
@testable import ReflexHardware

/// CSI sensors count exposure in lines (V4L2_CID_EXPOSURE); a line lasts (width + HBLANK) /
/// PIXEL_RATE, or what the board's `line-time-us` says.
@Suite("Exposure in lines")
struct ExposureInLinesTests {
    @Test func aLineLastsItsPixelsAndBlankingAtThePixelRate() throws {
        // IMX219 1920x1080 on a Raspberry Pi: 182.4 MHz, HBLANK 1528 → 18.9 µs.
        let line = try #require(ExposureControls.lineTime(pixelRate: 182_400_000, horizontalBlanking: 1528, width: 1920))
        #expect(abs(line - 3448.0 / 182_400_000) < 1e-12)
        #expect(ExposureControls.lineTime(pixelRate: 0, horizontalBlanking: 1528, width: 1920) == nil)
        #expect(ExposureControls.lineTime(pixelRate: 1, horizontalBlanking: -1, width: 1920) == nil)
    }

    @Test func theSimulatedCSISensorsLinesGiveItsRangeInSeconds() throws {
        let camera = SimulatedCamera(style: .exposureInLines)
        let info = SimulatedCamera.info(.exposureInLines)
        let measured = ExposureControls.measureLineTime(camera, device: info, width: SimulatedCamera.width)
        #expect(measured.map { abs($0 - 3000.0 / 90_000_000) < 1e-12 } == true)
        let lineTime = try #require(measured)
        let controls = ExposureControls(device: info, calibration: .simulated, measuredLineTime: measured)
        #expect(controls.exposureUnit == .lines(seconds: lineTime, source: "PIXEL_RATE and HBLANK"))
        #expect(abs(controls.limits.exposure.lowerBound - 4 * lineTime) < 1e-12)
        // The frame is 1000 lines at 30 fps; the exposure reaches 4 lines short of it.
        #expect(abs(controls.limits.exposure.upperBound - 996 * lineTime) < 1e-12)

        // 1/500 s is 60 lines; what is read back is what was set.
        let set = try controls.apply(ExposureSetting(exposure: 0.002, analogGain: 2), to: camera)
        #expect(try camera.control(REFLEX_V4L2_CID_EXPOSURE) == 60)
        #expect(abs(set.exposure - 0.002) < 1e-9)
        #expect(abs(try controls.current(camera).exposure - 0.002) < 1e-9)
    }

    /// An exposure longer than the mode's frame: VBLANK lengthens the frame first (the driver
    /// clamps the exposure to the frame it has), and the frames come that much further apart;
    /// a short exposure again gives the mode's own frame back.
    @Test func aLongExposureLengthensTheFrame() throws {
        let camera = SimulatedCamera(style: .exposureInLines)
        let info = SimulatedCamera.info(.exposureInLines).describingControlsNow(camera)
        let line = 3000.0 / 90_000_000
        let frameLength = try #require(ExposureControls.measureFrameLength(camera, device: info, height: SimulatedCamera.height))
        #expect(frameLength.margin == 4 && frameLength.base == 280 && frameLength.longestLines == 65531)
        let controls = ExposureControls(device: info, calibration: .simulated, measuredLineTime: line, frameLength: frameLength)
        #expect(abs(controls.limits.exposure.upperBound - 65531 * line) < 1e-9, "about 2.2 s")
        #expect(controls.summary.contains("up to 65531 lines (2.184 s) with the frame lengthened by VBLANK 280…64815"),
                "\(controls.summary)")

        // 1/4 s is 7500 lines: a frame of 7504 lines, VBLANK 6784.
        let long = try controls.apply(ExposureSetting(exposure: 0.25, analogGain: 1), to: camera)
        #expect(try camera.control(REFLEX_V4L2_CID_VBLANK) == 6784)
        #expect(try camera.control(REFLEX_V4L2_CID_EXPOSURE) == 7500)
        #expect(abs(long.exposure - 0.25) < 1e-9)
        // The frame lengthens with the exposure, two frames on, as a real sensor's does.
        // (The simulated sensor's timer ticks at its frame time; rendering a frame in an
        // unoptimised build takes longer than that, so the time is read, not measured.)
        _ = camera.advanceControls(byFrames: 2)
        #expect(abs(camera.frameSeconds - 1000 * line) < 1e-6, "not yet, two frames after")
        let taken = camera.advanceControls(byFrames: 1)
        #expect(abs(camera.frameSeconds - 7504 * line) < 1e-6)
        #expect(abs(taken.exposure - 0.25) < 1e-9, "the frame of 7504 lines is the one exposed for 1/4 s")

        // Back to 1/100 s: 300 lines, and the mode's 30 fps.
        _ = try controls.apply(ExposureSetting(exposure: 0.01, analogGain: 1), to: camera)
        #expect(try camera.control(REFLEX_V4L2_CID_VBLANK) == 280)
        #expect(try camera.control(REFLEX_V4L2_CID_EXPOSURE) == 300)
        _ = camera.advanceControls(byFrames: 3)
        #expect(abs(camera.frameSeconds - 1000 * line) < 1e-6)

        // A stream that starts where a long exposure was left (controls outlive a stream):
        // the mode's frame is its default, and reading the sensor's setting fits the frame to it.
        _ = try controls.apply(ExposureSetting(exposure: 0.25, analogGain: 1), to: camera)
        let restarted = SimulatedCamera.info(.exposureInLines).describingControlsNow(camera)
        let again = try #require(ExposureControls.measureFrameLength(camera, device: restarted, height: SimulatedCamera.height))
        #expect(again == frameLength)
        try camera.setControl(REFLEX_V4L2_CID_EXPOSURE, to: 300)
        let controlsAgain = ExposureControls(device: restarted, calibration: .simulated, measuredLineTime: line, frameLength: again)
        _ = try controlsAgain.current(camera)
        #expect(try camera.control(REFLEX_V4L2_CID_VBLANK) == 280)
        // Auto keeps the mode's frame: its longest preview exposure is the frame's 996 lines.
        #expect(abs(controlsAgain.limits.previewExposureLimit - 996 * line) < 1e-9)
    }

    @Test func theBoardsLineTimeWinsAndWithoutOneExposureIsLeftAlone() {
        let info = SimulatedCamera.info(.exposureInLines)
        var calibration = SensorCalibration.simulated
        calibration.lineTime = 20e-6
        let boardSays = ExposureControls(device: info, calibration: calibration, measuredLineTime: 33e-6)
        #expect(boardSays.exposureUnit == .lines(seconds: 20e-6, source: "the board's line-time-us"))

        let nobodySays = ExposureControls(device: info, calibration: .simulated, measuredLineTime: nil)
        #expect(nobodySays.exposure == nil)
        #expect(nobodySays.summary.contains("exposure in lines but no line time") || nobodySays.summary.contains("no line time"))
    }

    @Test func aUVCCamerasAbsoluteExposureIsStillIn100Microseconds() {
        let controls = ExposureControls(device: SimulatedCamera.info(.absoluteExposure), calibration: .simulated)
        #expect(controls.exposureUnit == .hundredMicroseconds)
        #expect(abs(controls.limits.exposure.upperBound - 0.0333) < 1e-9)
    }

    @Test func sensorConfSaysTheLineTimeInMicroseconds() throws {
        let calibration = try SensorCalibration.parse("line-time-us = 18.9\n").get()
        #expect(calibration.lineTime.map { abs($0 - 18.9e-6) < 1e-15 } == true)
        #expect(throws: SensorCalibration.Problem.self) { try SensorCalibration.parse("line-time-us = 0\n").get() }
    }
}
