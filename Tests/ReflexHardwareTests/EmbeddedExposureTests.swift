import ReflexTestSupport
import CAllocationCounter
import ReflexCore
import Synchronization
import ReflexISP
import Testing
@testable import ReflexHardware

/// A CSI sensor's frames say what exposure they had in their embedded data (its register
/// dump); the camera session reads it into each frame's `sensorExposure`, through the same
/// line time and gain law as the controls. The simulated CSI sensor sends it as an IMX477 does.
@Suite("Embedded exposure")
struct EmbeddedExposureTests {
    final class Lines: Sendable {
        let lines = Mutex<[String]>([])
    }

    /// The frames the stepped sensor gives, each read back, `count` of them.
    private static func frames(_ count: Int, of session: CameraSession, stepper: SensorStepper) throws -> [CapturedFrame] {
        var taken: [CapturedFrame] = []
        while taken.count < count {
            stepper.step()
            guard let frame = try session.nextFrame() else { continue }
            try session.giveBack(frame)
            taken.append(frame)
        }
        return taken
    }

    @Test func eachFramesExposureIsReadFromItsEmbeddedData() throws {
        let stepper = SensorStepper()
        let session = CameraSession(choice: CameraChoice(source: .simulated(.exposureInLines, pace: .stepped(stepper))),
                                    calibration: .simulated, clock: .manual(stepper.clock), log: { _ in })
        #expect(try session.start())
        defer { session.stop() }
        let start = try session.applyExposure(ExposureSetting(exposure: 0.002, analogGain: 1))
        _ = try Self.frames(4, of: session, stepper: stepper)
        // 1/125 s at gain 2: 240 lines, gain code 32. It reaches the frames two frames later;
        // each frame says which it had.
        _ = try session.applyExposure(ExposureSetting(exposure: 0.008, analogGain: 2))
        let after = try Self.frames(4, of: session, stepper: stepper)
        for frame in after { #expect(frame.embeddedData?.first == EmbeddedDataTag.lineStart) }
        let reported = try after.map { try #require($0.sensorExposure) }
        #expect(abs(reported[0].exposure - start.exposure) < 1e-9 && reported[0].analogGain == 1, "the old exposure still")
        #expect(abs(reported[3].exposure - 0.008) < 1e-9 && reported[3].analogGain == 2, "\(reported)")
        #expect(Set(reported.map(\.analogGain)) == [1, 2], "the change seen on one frame, not assumed")
    }

    /// Registers the sensor does not dump where the board says: said once, and the frames
    /// carry no report (the controls' history stands).
    @Test func embeddedDataWithoutTheRegistersIsSaidOnce() throws {
        let stepper = SensorStepper()
        let parsed = try SensorCalibration.parse("embedded-exposure-register = 0x0300\nembedded-gain-register = 0x0157/8\n").get()
        #expect(parsed.embeddedExposureRegister == SensorRegister(address: 0x0300, byteCount: 2))
        #expect(parsed.embeddedGainRegister == SensorRegister(address: 0x0157, byteCount: 1))
        #expect(throws: SensorCalibration.Problem.self) { try SensorCalibration.parse("embedded-gain-register = 204\n").get() }
        var calibration = SensorCalibration.simulated
        calibration.embeddedExposureRegister = parsed.embeddedExposureRegister
        let log = Lines()
        let session = CameraSession(choice: CameraChoice(source: .simulated(.exposureInLines, pace: .stepped(stepper))),
                                    calibration: calibration, clock: .manual(stepper.clock),
                                    log: { line in log.lines.withLock { $0.append(line) } })
        #expect(try session.start())
        defer { session.stop() }
        let frames = try Self.frames(3, of: session, stepper: stepper)
        #expect(frames.allSatisfy { $0.embeddedData != nil && $0.sensorExposure == nil })
        let said = log.lines.withLock { $0 }.filter { $0.contains("embedded data") }
        #expect(said.count == 1)
        #expect(said.first?.contains("RAW12-packed, registers 0x0300 and 0x0204) gives no exposure: "
                                     + "the exposure and gain registers are not in it") == true, "\(said)")
    }

    @Test func theRegistersAreTheControlsUnits() {
        let info = SimulatedCamera.info(.exposureInLines)
        let line = 3000.0 / 90_000_000
        let linear = ExposureControls(device: info, calibration: .simulated, measuredLineTime: line)
        let read = linear.setting(reported: EmbeddedExposure(lines: 300, gainCode: 48))
        #expect(read.map { abs($0.exposure - 0.01) < 1e-12 && $0.analogGain == 3 } == true)
        // An IMX477's gain register: 1024 / (1024 − code).
        var sony = SensorCalibration.simulated
        sony.gainLaw = .reciprocal(1024)
        let imx477 = ExposureControls(device: info, calibration: sony, measuredLineTime: line)
        #expect(imx477.setting(reported: EmbeddedExposure(lines: 300, gainCode: 768))?.analogGain == 4)
        #expect(imx477.setting(reported: EmbeddedExposure(lines: 300, gainCode: 1024)) == nil, "no gain is infinite")
        // A camera whose exposure is not in lines has no registers to read.
        let uvc = ExposureControls(device: SimulatedCamera.info(.absoluteExposure), calibration: .simulated)
        #expect(uvc.setting(reported: EmbeddedExposure(lines: 300, gainCode: 48)) == nil)
    }

    /// It runs each frame on the sensor thread: writing and reading the registers allocate nothing.
    @Test func readingAndWritingInPlaceAllocateNothing() {
        let data = SimulatedEmbeddedData(bufferCount: 2, width: SimulatedCamera.width)
        let reader = EmbeddedDataReader(packing: SimulatedEmbeddedData.packing, lineLength: data.lineLength)
        func oneFrame(_ n: Int) -> Bool {
            let bytes = data.write(index: n % 2, exposureLines: 100 + n, gainCode: 16, frameLengthLines: 1000)
            return (try? reader.read(bytes).get()) == EmbeddedExposure(lines: 100 + n, gainCode: 16)
        }
        #expect(oneFrame(0))
        let before = reflex_thread_allocations()
        var allRead = true
        for n in 1...20 { allRead = oneFrame(n) && allRead }
        #expect(reflex_thread_allocations() - before == 0)
        #expect(allRead)
    }
}
