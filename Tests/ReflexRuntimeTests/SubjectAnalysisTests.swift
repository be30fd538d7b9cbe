import ReflexTestSupport
import Foundation
import ReflexCore
import ReflexHardware
import ReflexISP
@testable import ReflexRuntime
import ReflexSystem
import ReflexVision
import Testing

/// The analysis engine on real footage: six seconds of OpenCV's vtest.avi (people walking,
/// Tests/Data/people) played by the file sensor through the sensor pipeline, the analysis
/// driven frame by frame on the stepped sensor's clock.
@Suite("Subject analysis")
struct SubjectAnalysisTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let clip = repository + "/Tests/Data/people/vtest-0100-6s.mp4"
    static let model = repository + "/Models/" + PersonDetector.modelFileName

    /// The rig: the file sensor stepped, its frames to the analysis sink; `frames` analysed,
    /// the snapshot after each handed to `each`.
    final class Rig {
        let stepped: SteppedPipeline
        let analysis: SubjectAnalysis

        init() {
            stepped = SteppedPipeline(videoFile: SubjectAnalysisTests.clip, log: { _ in })
            analysis = SubjectAnalysis(modelPath: SubjectAnalysisTests.model, clock: .manual(stepped.stepper.clock), log: { _ in })
            analysis.openDetector()
            // (Paused until something wants it: here, the test.)
            analysis.setWanted(true)
            stepped.pipeline.mailbox.attach(analysis.sink)
        }

        /// The next frame through the sensor and the analysis; false if it never came.
        func analyseFrame() -> Bool {
            let before = analysis.sink.published
            guard stepped.step(), waitUntil({ self.analysis.sink.published > before }),
                  let frame = analysis.sink.takeFrame() else { return false }
            analysis.analyse(frame, at: stepped.stepper.clock.now)
            return true
        }
    }

    @Test func peopleOnRealFootageAreFoundFollowedAndPublished() throws {
        let rig = Rig()
        #expect(rig.analysis.isAvailable, "the model at \(Self.model) opens (Models/fetch puts it there)")
        #expect(rig.stepped.pipeline.start())
        defer { rig.stepped.pipeline.stop() }
        var subjects: [Int] = []
        #expect(rig.analysis.summary(at: rig.stepped.stepper.clock.now) == nil, "no summary before a frame")
        var started = 0.0
        for index in 0..<30 {
            try #require(rig.analyseFrame())
            if index == 0 {
                started = rig.stepped.stepper.clock.now
                #expect(rig.analysis.summary(at: started + 1) == nil, "the log's first summary comes after ten seconds")
            }
            let snapshot = rig.analysis.newestSnapshot()
            if let subject = snapshot.subject { subjects.append(subject.id) }
        }
        let snapshot = rig.analysis.newestSnapshot()
        #expect(snapshot.framesAnalysed == 30)
        #expect(snapshot.detections >= 29, "a detection each frame of a 10 fps stream: \(snapshot.detections)")
        #expect(subjects.count >= 27, "a subject from the second frame on: \(subjects.count) of 30")
        #expect(Set(subjects).count == 1, "the same subject throughout: \(Set(subjects))")
        let subject = try #require(snapshot.subject)
        #expect(subject.isConfirmed && subject.box(at: snapshot.time).height > 0.05)
        #expect(snapshot.otherCount >= 3, "the others walking by are followed too: \(snapshot.otherCount)")
        #expect(snapshot.forwardMilliseconds > 0 && snapshot.inferenceMilliseconds >= snapshot.forwardMilliseconds)
        #expect(rig.analysis.sink.framesLost == 0, "every frame taken")
        let line = try #require(rig.analysis.summary(at: started + SubjectAnalysis.summarySeconds))
        #expect(line.hasPrefix("analysis: 30 frames in 10 s, \(snapshot.detections) detections")
                && line.contains("subject #\(subject.id) at (") && line.hasSuffix(" high"), "the log's summary: \(line)")
        #expect(rig.analysis.summary(at: started + SubjectAnalysis.summarySeconds + 1) == nil)
    }

    /// A machine whose one detection takes longer than the summaries' interval (an emulator
    /// on a slow day): the line comes after that detection, not after the next, so whoever
    /// waits on the log sees each detection's progress.
    @Test func aDetectionSlowerThanTheSummaryIntervalGetsItsOwnLine() throws {
        let rig = Rig()
        #expect(rig.stepped.pipeline.start())
        defer { rig.stepped.pipeline.stop() }
        try #require(rig.analyseFrame())
        let taken = rig.stepped.stepper.clock.now
        let line = try #require(rig.analysis.summary(at: taken + 3 * SubjectAnalysis.summarySeconds), "the first detection's line")
        #expect(line.hasPrefix("analysis: 1 frames in 30 s, 1 detections"), "\(line)")
        #expect(rig.analysis.summary(at: taken + 3 * SubjectAnalysis.summarySeconds + 1) == nil, "one line a detection")
    }

    @Test func aTapOnSomeoneElseMakesThemTheSubject() throws {
        let rig = Rig()
        #expect(rig.stepped.pipeline.start())
        defer { rig.stepped.pipeline.stop() }
        for _ in 0..<10 { try #require(rig.analyseFrame()) }
        let before = rig.analysis.newestSnapshot()
        let first = try #require(before.subject)
        #expect(before.otherCount > 0)
        let other = before.others[0]
        rig.analysis.tap(x: other.centreX, y: other.centreY)
        try #require(rig.analyseFrame())
        let after = rig.analysis.newestSnapshot()
        let chosen = try #require(after.subject)
        #expect(chosen.id != first.id && after.subjectTapped)
        #expect(chosen.box(at: after.time).overlap(other) > 0.3, "the person tapped")
        // A tap on no one: the choice cleared, the rule's subject again.
        rig.analysis.tap(x: 0.02, y: 0.98)
        try #require(rig.analyseFrame())
        #expect(!rig.analysis.newestSnapshot().subjectTapped)
    }

    @Test func withoutAModelTheCameraRunsWithoutAutoZoomAndSaysSo() {
        let said = LogLines()
        let analysis = SubjectAnalysis(modelPath: nil, log: { said.append($0) })
        analysis.openDetector()
        #expect(!analysis.isAvailable)
        #expect(said.lines.contains { $0.contains("runs without auto-zoom") })
        let missing = SubjectAnalysis(modelPath: "/nonexistent.pb", log: { said.append($0) })
        missing.openDetector()
        #expect(!missing.isAvailable)
        #expect(said.lines.contains { $0.contains("/nonexistent.pb") })
    }

    final class LogLines: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [String] = []
        func append(_ line: String) { lock.withLock { stored.append(line) } }
        var lines: [String] { lock.withLock { stored } }
    }
}
