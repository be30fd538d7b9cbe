import Foundation
import ReflexCore
import ReflexHardware
import ReflexISP
import ReflexTestSupport
import ReflexUI
import Testing
@testable import ReflexRuntime

/// Exposure bracketing on the stepped simulated sensor (issue 37): a press in the Bracketing
/// drive sends one exposure a frame, the sensor's frames report what each had, the bracket's
/// frames are consecutive ones, each a photo with its own exposure in EXIF, and the base
/// exposure comes back after.
@Suite("Bracket capture", .serialized)
struct BracketCaptureTests {
    /// The sequences of the photos saved, from the photo thread's log, in order.
    static func photoFrames(_ log: String) -> [UInt32] {
        log.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: #"photo \d+: frame \d+"#, options: .regularExpression) else { return nil }
            return UInt32(line[range].split(separator: " ").last!)
        }
    }

    /// ExposureTime × ISO, ExposureMode and ExposureCompensation, as exiftool reads them.
    static func exif(_ path: String) throws -> (product: Double, mode: String, bias: Double)? {
        let run = try ProgramRun(["exiftool", "-n", "-s3", "-ExposureTime", "-ISO", "-ExposureMode", "-ExposureCompensation", path])
        let values = run.output.split(separator: "\n").map { String($0) }
        guard values.count == 4, let time = Double(values[0]), let iso = Double(values[1]), let bias = Double(values[3]) else {
            return nil
        }
        return (time * iso, values[2], bias)
    }

    @Test(.tags(.externalTool)) func aBracketTakesConsecutiveFramesEachWithItsOwnExposure() throws {
        let rig = CaptureTests.Rig(format: .raw, spares: 4, stepped: true)
        rig.start()
        defer { rig.stop() }
        #expect(rig.step(frames: 12), "the sensor streams")
        let plan = try #require(BracketPlan(frames: 3, stepThirds: 3))
        #expect(rig.pipeline.mailbox.requestCapture(at: rig.pressDuringTheLastFrame, bracket: plan))
        rig.recordFrames(after: 8)
        #expect(rig.step(untilSaved: 3), "three photos: \(rig.log.text.suffix(2000))")
        // (The report's count and the log's line are two posts: both are waited for.)
        #expect(waitUntil { BracketCaptureTests.photoFrames(rig.log.text).count == 3 },
                "the three photos' lines: \(rig.log.text.suffix(2000))")
        let frames = BracketCaptureTests.photoFrames(rig.log.text)
        try #require(frames.count == 3, "the bracket's frames are consecutive ones: \(frames)")
        #expect(frames == [frames[0], frames[0] + 1, frames[0] + 2], "the bracket's frames are consecutive ones: \(frames)")
        // Each frame's exposure, as the sensor reported it, is the one asked for: the base,
        // a stop under, a stop over.
        let recorded = Dictionary(rig.recorder.recorded.map { ($0.sequence, $0.exposure.product) }) { a, _ in a }
        let products = frames.compactMap { recorded[$0] }
        #expect(products.count == 3)
        if products.count == 3 {
            #expect(abs(products[1] / products[0] - 0.5) < 0.03 && abs(products[2] / products[0] - 2) < 0.1,
                    "the sensor's frames: \(products)")
        }
        // The files say the same, numbered in the order taken.
        let files = try (1...3).compactMap { try BracketCaptureTests.exif(rig.card.path + "/DCIM/100REFLX/RFLX000\($0).DNG") }
        try #require(files.count == 3, "exiftool reads the three DNGs")
        #expect(files.map(\.mode) == ["2", "2", "2"], "ExposureMode: auto bracket")
        #expect(files.map(\.bias) == [0, -1, 1], "ExposureCompensation: the bracket's offsets")
        #expect(abs(files[1].product / files[0].product - 0.5) < 0.03 && abs(files[2].product / files[0].product - 2) < 0.1,
                "ExposureTime × ISO: \(files.map(\.product))")
        // (The sensor thread posts the bracket's outcome in its report, apart from the photos.)
        #expect(waitUntil { rig.sensorReport().lastBracket != nil })
        let outcome = rig.sensorReport().lastBracket
        #expect(outcome == BracketOutcome(press: 1, frames: 3, taken: 3, notAsAsked: 0))
        // The base comes back on the frame after the bracket's last.
        #expect(rig.step(frames: 3))
        let after = rig.recorder.recorded.first { $0.sequence == frames[2] + 1 }
        let base = try #require(products.first, "the sensor's frames: \(products)")
        #expect(after.map { abs($0.exposure.product / base - 1) < 0.03 } == true, "the base again after the bracket")
    }

    /// The viewfinder shows a bracket's frames as bright as the base: its digital gain makes
    /// up the difference, while the photos keep their own exposure.
    @Test func theViewfinderDoesNotFlickerWithTheBracket() throws {
        let rig = CaptureTests.Rig(format: .raw, spares: 4, stepped: true)
        rig.start()
        defer { rig.stop() }
        #expect(rig.step(frames: 12))
        let plan = try #require(BracketPlan(frames: 5, stepThirds: 6))
        #expect(rig.pipeline.mailbox.requestCapture(at: rig.pressDuringTheLastFrame, bracket: plan))
        rig.recordFrames(after: 8)
        // The preview's frames as the loop takes them: the sensor's exposure of each (as the
        // recorder got it) times the digital gain the preview renders it with is what the
        // panel shows.
        var shownGain: [UInt32: Double] = [:]
        for _ in 0..<12 {
            #expect(rig.step())
            if let frame = rig.pipeline.preview.takeFrame(), let parameters = frame.parameters {
                shownGain[frame.sequence] = parameters.digitalGain
            }
        }
        // (A frame held in the ring for a spare is taken as the next frame comes.)
        #expect(rig.step(untilSaved: 5), "five photos: \(rig.log.text.suffix(2000))")
        let shown = rig.recorder.recorded.compactMap { frame in shownGain[frame.sequence].map { frame.exposure.product * $0 } }
        #expect(shown.count >= 10)
        let base = try #require(shown.first)
        #expect(shown.allSatisfy { abs($0 / base - 1) < 0.05 }, "the viewfinder's brightness: \(shown)")
        // (The report's count and the log's lines are two posts: both are waited for.)
        #expect(waitUntil { BracketCaptureTests.photoFrames(rig.log.text).count == 5 },
                "the five photos' lines: \(rig.log.text.suffix(2000))")
        let taken = BracketCaptureTests.photoFrames(rig.log.text)
        let products = rig.recorder.recorded.filter { taken.contains($0.sequence) }.map { $0.exposure.product }
        let stops = products.map { Int(log2($0 / products[0]).rounded()) }
        #expect(stops == [0, -2, 2, -4, 4], "the photos' frames keep their five exposures: \(products)")
    }

    /// Pro at 1/30 s and ISO 100 on a 30 fps stream: a stop over needs 1/15 s, longer than a
    /// frame. The bracket keeps its three frames and says one is not exposed as asked.
    @Test func aBracketTheSensorCannotReachSaysSo() throws {
        var settings = CameraSettings()
        settings.mode = .pro
        settings.shutter = .manual(ShutterSpeed(1, 30))
        settings.iso = .manual(ISOSpeed(100))
        let rig = CaptureTests.Rig(format: .raw, spares: 4, stepped: true, settings: settings)
        rig.start()
        defer { rig.stop() }
        #expect(rig.step(frames: 12))
        let plan = try #require(BracketPlan(frames: 3, stepThirds: 3))
        #expect(rig.pipeline.mailbox.requestCapture(at: rig.pressDuringTheLastFrame, bracket: plan))
        #expect(rig.step(untilSaved: 3))
        #expect(waitUntil { rig.sensorReport().lastBracket != nil })
        let outcome = try #require(rig.sensorReport().lastBracket)
        #expect(outcome == BracketOutcome(press: 1, frames: 3, taken: 3, notAsAsked: 1), "\(rig.log.text.suffix(1500))")
        #expect(InterfaceText.bracketShort(frames: 3, taken: 3, notAsAsked: 1) == "Bracket: 1 of 3 frames not exposed as asked")
        #expect(rig.log.text.contains("bracket of 3 at ±1 EV, 3 taken, 1 not exposed as asked"))
    }

    /// A board whose stills come from a switch to the still mode (`stills = switch`, as the
    /// QEMU board's): each of the bracket's frames is a still of its own, switched to at its
    /// exposure, and its files say the exposure the sensor's controls read back.
    @Test(.tags(.externalTool)) func aStillModeBoardTakesEachFrameAsAStillOfItsOwn() throws {
        var calibration = SensorCalibration.simulated
        (calibration.previewWidth, calibration.previewHeight) = (SimulatedCamera.binnedWidth, SimulatedCamera.binnedHeight)
        (calibration.stillWidth, calibration.stillHeight) = (SimulatedCamera.width, SimulatedCamera.height)
        calibration.stillsBy = .modeSwitch
        let pool = FramePool(count: 1, frameBytes: SimulatedCamera.width * SimulatedCamera.height * 2)
        let rig = CaptureTests.Rig(format: .raw, calibration: calibration, stillFrames: pool, stepped: true)
        let stepper = try #require(rig.stepper)
        rig.start()
        stepper.startFollowing()
        defer { stepper.stopFollowing(); rig.stop() }
        #expect(waitUntil { rig.recorder.count >= 5 }, "the preview streams")
        let plan = try #require(BracketPlan(frames: 3, stepThirds: 3))
        #expect(rig.pipeline.mailbox.requestCapture(at: stepper.clock.now, bracket: plan))
        #expect(waitUntil { rig.photoReport().saved == 3 }, "three saved: \(rig.log.text.suffix(2000))")
        let files = try (1...3).compactMap { try BracketCaptureTests.exif(rig.card.path + "/DCIM/100REFLX/RFLX000\($0).DNG") }
        try #require(files.count == 3, "exiftool reads the three DNGs")
        #expect(files.map(\.mode) == ["2", "2", "2"] && files.map(\.bias) == [0, -1, 1])
        #expect(abs(files[1].product / files[0].product - 0.5) < 0.03 && abs(files[2].product / files[0].product - 2) < 0.1,
                "ExposureTime × ISO: \(files.map(\.product))")
        #expect(rig.log.text.components(separatedBy: "still mode 1280x720, its frame in hand").count == 4, "three switches")
        // (The sensor thread posts the bracket's outcome in its report, apart from the photos.)
        #expect(waitUntil { rig.sensorReport().lastBracket != nil })
        #expect(rig.sensorReport().lastBracket == BracketOutcome(press: 1, frames: 3, taken: 3, notAsAsked: 0))
    }
}
