import ReflexTestSupport
import ReflexCore
import ReflexHardware
import ReflexISP
import Testing
@testable import ReflexRuntime

/// Bad hardware (issue 35): a sensor whose every fourth frame is damaged in turn — cut short,
/// flagged by the driver, garbage. The sensor thread skips the first two kinds, says so once
/// and counts them in its summaries, passes the garbage on as a picture (nothing tells it
/// from one), and streams on: every other frame reaches the viewfinder, in order.
@Suite("Damaged frames", .serialized)
struct DamagedFramesTests {
    @Test func damagedFramesAreSkippedSaidAndCountedAndTheStreamGoesOn() throws {
        let stepper = SensorStepper()
        let faults = SensorFaults(every: 4)
        let log = TestLog()
        let choice = CameraChoice(source: .simulated(.absoluteExposure, pace: .stepped(stepper), faults: .init(faults)),
                                  width: SimulatedCamera.binnedWidth, height: SimulatedCamera.binnedHeight)
        let pipeline = SensorPipeline(settings: CameraSettings(), calibration: .simulated, choice: choice,
                                      clock: .manual(stepper.clock), log: log.write)
        let sequences = SequenceRecorder()
        pipeline.mailbox.attach(sequences)
        #expect(pipeline.start())
        defer { pipeline.stop() }
        // Frames one at a time, each taken before the next (so none merge): past a summary,
        // five seconds of the stepper's clock. The wait only guards against a hang (the frames
        // take seconds natively, minutes under a sanitizer).
        stepper.startFollowing()
        defer { stepper.stopFollowing() }
        #expect(waitUntil(seconds: 600) { log.text.contains("damaged skipped") && (sequences.recorded.last ?? 0) > 160 }, "\(log.text)")
        stepper.stopFollowing()

        let cutShort = "is damaged (\(SimulatedCamera.binnedWidth * SimulatedCamera.binnedHeight) of its "
        #expect(log.text.contains("camera: frame 4 " + cutShort), "the first damaged frame said, with its bytes: \(log.text)")
        #expect(log.text.components(separatedBy: "is damaged (").count == 2, "said once a stream")
        let delivered = sequences.recorded
        for sequence in 1...UInt32(160) {
            let damage = faults.damage(toFrame: sequence)
            let skipped = damage == .cutShort || damage == .flaggedError
            #expect(delivered.contains(sequence) != skipped, "frame \(sequence) (\(String(describing: damage)))")
        }
        #expect(delivered == delivered.sorted(), "in order")
        // Four seconds' summary: 150 frames, a quarter damaged, two thirds of those skipped.
        let summary = try #require(log.text.split(separator: "\n").first { $0.contains("damaged skipped") })
        #expect(summary.contains(", 25 damaged skipped") || summary.contains(", 24 damaged skipped")
                || summary.contains(", 26 damaged skipped"), "\(summary)")
    }
}
