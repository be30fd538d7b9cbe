import CV4L2
import ReflexCore
import ReflexISP
import Testing
@testable import ReflexHardware

/// CSI sensors count exposure in lines (V4L2_CID_EXPOSURE); a line lasts (width + HBLANK) /
/// PIXEL_RATE, or what the board's `line-time-us` says.
@Suite("Exposure in lines")
struct ExposureInLinesTests {
    @Test func aLineLastsItsPixelsAndBlankingAtThePixelRate() {
        // IMX219 1920x1080 on a Raspberry Pi: 182.4 MHz, HBLANK 1528 → 18.9 µs.
        let line = ExposureControls.lineTime(pixelRate: 182_400_000, horizontalBlanking: 1528, width: 1920)!
        #expect(abs(line - 3448.0 / 182_400_000) < 1e-12)
        #expect(ExposureControls.lineTime(pixelRate: 0, horizontalBlanking: 1528, width: 1920) == nil)
        #expect(ExposureControls.lineTime(pixelRate: 1, horizontalBlanking: -1, width: 1920) == nil)
    }

    @Test func theSimulatedCSISensorsLinesGiveItsRangeInSeconds() throws {
        let camera = SimulatedCamera(style: .exposureInLines)
        let info = SimulatedCamera.info(.exposureInLines)
        let measured = ExposureControls.measureLineTime(camera, device: info, width: SimulatedCamera.width)
        #expect(measured.map { abs($0 - 3000.0 / 90_000_000) < 1e-12 } == true)
        let controls = ExposureControls(device: info, calibration: .simulated, measuredLineTime: measured)
        #expect(controls.exposureUnit == .lines(seconds: measured!, source: "PIXEL_RATE and HBLANK"))
        #expect(abs(controls.limits.exposure.lowerBound - 4 * measured!) < 1e-12)
        #expect(abs(controls.limits.exposure.upperBound - 1000 * measured!) < 1e-12)

        // 1/500 s is 60 lines; what is read back is what was set.
        let set = try controls.apply(ExposureSetting(exposure: 0.002, analogGain: 2), to: camera)
        #expect(try camera.control(REFLEX_V4L2_CID_EXPOSURE) == 60)
        #expect(abs(set.exposure - 0.002) < 1e-9)
        #expect(abs(try controls.current(camera).exposure - 0.002) < 1e-9)
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
