import ReflexTestSupport
import Foundation
import ReflexCore
import ReflexHardware
import ReflexISP
import Synchronization
import Testing
@testable import ReflexRuntime

/// Waits until `condition` holds or `seconds` pass; whether it held. The bound only ends a
/// hang: a test waits for its event, and a busy machine (the suites run beside an image
/// build, many tests at once) may take minutes over what takes a second here.
func waitUntil(seconds: Double = 300, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.002)
    }
    return condition()
}

/// A log the tests can read back.
final class TestLog: Sendable {
    private let lines = Mutex<[String]>([])
    var write: @Sendable (String) -> Void { { line in self.lines.withLock { $0.append(line) } } }
    var text: String { lines.withLock { $0.joined(separator: "\n") } }
}

/// Sinks on the simulated sensor's stream: the preview, where the newest frame wins, and one
/// that must not lose frames silently.
@Suite("Frame sinks and the control path")
struct FrameSinkTests {
    static let binned = CameraChoice(source: .simulated(.absoluteExposure), width: SimulatedCamera.binnedWidth,
                                     height: SimulatedCamera.binnedHeight)

    /// A consumer that drains 5 frames a second from a stream of 30 (one frame in six, the
    /// sensor stepped frame by frame): the frames it cannot take are counted (and reported in
    /// the camera's status), every frame still goes to the preview, and the sensor thread
    /// never waits for the slow sink.
    @Test func aSinkThatFallsBehindHasItsLossesCountedWhileThePreviewGetsEveryFrame() throws {
        let log = TestLog()
        let stepped = SteppedPipeline(log: log.write)
        let pipeline = stepped.pipeline
        let slow = FrameQueue(name: "slow encoder", capacity: 3)
        pipeline.mailbox.attach(slow)
        #expect(pipeline.start())
        var drained = 0, previewSequences: [UInt32] = []
        for frame in 1...45 {
            #expect(stepped.step())
            if let frame = pipeline.preview.takeFrame() { previewSequences.append(frame.sequence) }
            if frame % 6 == 0, let slot = slow.take() {
                #expect(slot.byteCount == SimulatedCamera.binnedWidth * SimulatedCamera.binnedHeight * 2)
                slow.release()
                drained += 1
            }
        }
        // (The report follows the frame that changed it.)
        #expect(waitUntil { pipeline.status.latestSensorReport().framesLost == slow.framesLost })
        let reported = pipeline.status.latestSensorReport()
        pipeline.stop()
        let delivered = pipeline.preview.published
        #expect(delivered == 45, "\(delivered) frames")
        #expect(previewSequences.count == 45, "the preview had every frame")
        #expect(slow.framesLost > 0, "the slow sink fell behind")
        #expect(slow.framesQueued + slow.framesLost == delivered,
                "every frame reached the slow sink or was counted lost: \(slow.framesQueued) + \(slow.framesLost) ≠ \(delivered)")
        #expect(slow.framesQueued <= drained + slow.capacity, "it holds no more than its slots")
        #expect(reported.framesLost > 0 && reported.framesLost <= slow.framesLost, "the status reports the losses")
        #expect(previewSequences == previewSequences.sorted() && Set(previewSequences).count == previewSequences.count,
                "the preview's frames come in order")
        #expect(log.text.contains("frames: slow encoder attached"), "\(log.text)")
    }

    /// The queue on its own: a full queue refuses a frame and counts it; a freed slot takes
    /// the next one; what comes out is what went in, in order.
    @Test func aFullQueueCountsWhatItRefusesAndKeepsWhatItTook() {
        let queue = FrameQueue(name: "ring", capacity: 2, frameBytes: 16)
        let format = RawFormat(cfa: .rggb, bitsPerSample: 8, packing: .bits8)
        for value in UInt8(1)...4 {
            let bytes = [UInt8](repeating: value, count: 16)
            bytes.withUnsafeBytes { raw in
                queue.deliver(SensorFrame(testBytes: raw, width: 4, height: 4, bytesPerLine: 4, format: format,
                                          parameters: nil, sequence: UInt32(value)))
            }
        }
        #expect(queue.framesQueued == 2 && queue.framesLost == 2)
        #expect(queue.take()?.sequence == 1)
        #expect(queue.take()?.frame.first == 1, "the oldest stays until released")
        queue.release()
        [UInt8](repeating: 5, count: 16).withUnsafeBytes { raw in
            queue.deliver(SensorFrame(testBytes: raw, width: 4, height: 4, bytesPerLine: 4, format: format,
                                      parameters: nil, sequence: 5))
        }
        #expect(queue.framesQueued == 3 && queue.framesLost == 2)
        #expect(queue.take()?.sequence == 2)
        queue.release()
        let last = queue.take()
        #expect(last?.sequence == 5 && last?.frame.allSatisfy { $0 == 5 } == true)
        queue.release()
        #expect(queue.take() == nil)
    }

    /// Another mode while the camera streams: the session streams again in it, says so, and
    /// the preview has its frames within a second of the sensor's time (the sensor stepped
    /// frame by frame: how long the restart takes on the machine is no part of it).
    @Test func aNewModeMidStreamBringsThePreviewBackWithinASecond() throws {
        let log = TestLog()
        let stepped = SteppedPipeline(binned: false, log: log.write)
        let pipeline = stepped.pipeline
        #expect(pipeline.start())
        defer { pipeline.stop() }
        #expect(stepped.step(until: { pipeline.preview.takeFrame()?.width == SimulatedCamera.width }, frames: 30),
                "the full mode streams")
        // The report of that stream, which may come a moment after its first frame: counted
        // from before it, the restart's stream would seem to be one too many.
        #expect(stepped.step(until: {
            let report = pipeline.status.latestSensorReport()
            return report.width == SimulatedCamera.width && report.status == .streaming
        }, frames: 30), "the report says it streams in the full mode")
        let before = pipeline.status.latestSensorReport().streamCount
        let asked = stepped.stepper.clock.now
        pipeline.mailbox.choose(CameraChoice(source: .simulated(.absoluteExposure, pace: .stepped(stepped.stepper)),
                                             width: SimulatedCamera.binnedWidth, height: SimulatedCamera.binnedHeight))
        #expect(stepped.step(until: { pipeline.preview.takeFrame()?.width == SimulatedCamera.binnedWidth }, frames: 30),
                "the preview came back within 30 frames (a second)")
        let seconds = stepped.stepper.clock.now - asked
        #expect(seconds <= 1, "the preview came back after \(seconds) s of the sensor's time")
        #expect(stepped.step(until: {
            let report = pipeline.status.latestSensorReport()
            return report.streamCount == before + 1 && report.width == SimulatedCamera.binnedWidth && report.status == .streaming
        }, frames: 30), "the report says it streams again, in the new mode: \(pipeline.status.latestSensorReport())")
        #expect(log.text.contains("streaming simulated (Simulated sensor, driver reflex-sim) RG12 640x360"), "\(log.text)")
    }

    /// Settings are fitted to the camera once, on the sensor side: the report carries them
    /// fitted (the simulated sensor's gain reaches ISO 1594, so a manual 6400 becomes 1250),
    /// and shutter presses come through the mailbox, none lost.
    @Test func theReportCarriesTheFittedSettingsAndTheShutterPresses() throws {
        var pro = CameraSettings()
        pro.mode = .pro
        pro.iso = .manual(ISOSpeed(6400))
        let stepped = SteppedPipeline(settings: pro, log: { _ in })
        let pipeline = stepped.pipeline
        #expect(pipeline.start())
        defer { pipeline.stop() }
        #expect(stepped.step(until: { pipeline.status.latestSensorReport().limits != nil }, frames: 30))
        let report = pipeline.status.latestSensorReport()
        #expect(report.limits?.isoRange == 100...1594)
        #expect(report.settings.iso == .manual(ISOSpeed(1250)), "\(report.settings.iso)")
        #expect(report.iso == 1250 || report.iso == 1252, "the sensor runs at the fitted ISO: \(report.iso)")
        for press in 1...3 { #expect(pipeline.mailbox.requestCapture(at: Double(press))) }
        #expect(stepped.step(until: { pipeline.status.latestSensorReport().captureRequestsTaken == 3 }, frames: 10))
    }
}
