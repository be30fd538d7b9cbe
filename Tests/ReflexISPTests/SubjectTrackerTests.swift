import ReflexCore
import ReflexISP
import Testing

/// Detections become tracks: identities kept through misses, crossings and occlusions, with
/// the time injected (detections 10 a second, as the analysis thread gives them).
@Suite("Subject tracker")
struct SubjectTrackerTests {
    static let step = 0.1

    static func person(_ centreX: Double, _ centreY: Double = 0.5, height: Double = 0.2) -> PersonDetection {
        PersonDetection(box: FrameBox(centreX: centreX, centreY: centreY, width: height * 0.4, height: height), confidence: 0.9)
    }

    /// Feeds `seconds` of detections given by `people(t)`.
    static func run(_ tracker: inout SubjectTracker, from start: Double = 0, seconds: Double,
                    people: (Double) -> [PersonDetection]) {
        for index in 0..<Int((seconds / step).rounded()) {
            let time = start + Double(index) * step
            tracker.update(with: people(time), at: time)
        }
    }

    @Test func aWalkerKeepsOneIdentityAndItsSpeedIsLearnt() throws {
        var tracker = SubjectTracker()
        Self.run(&tracker, seconds: 3) { t in [Self.person(0.2 + 0.1 * t)] }
        try #require(tracker.tracks.count == 1)
        let track = tracker.tracks[0]
        #expect(track.id == 1 && track.isConfirmed)
        #expect(abs(track.velocity.x - 0.1) < 0.01, "a tenth of the picture a second, estimated \(track.velocity.x)")
        #expect(tracker.subject?.id == 1, "the only person is the subject")
    }

    @Test func aShortOcclusionIsPredictedThroughAndTheIdentityKept() throws {
        var tracker = SubjectTracker()
        Self.run(&tracker, seconds: 2) { t in [Self.person(0.2 + 0.15 * t)] }
        // Behind a tree for 0.9 s: no detection, the box predicted meanwhile.
        Self.run(&tracker, from: 2, seconds: 0.9) { _ in [] }
        let predicted = try #require(tracker.tracks.first).box(at: 2.9)
        #expect(abs(predicted.centreX - (0.2 + 0.15 * 2.9)) < 0.03, "predicted where the walker went, \(predicted.centreX)")
        Self.run(&tracker, from: 2.9, seconds: 1) { t in [Self.person(0.2 + 0.15 * t)] }
        #expect(tracker.tracks.map(\.id) == [1], "the same person after the occlusion")
    }

    @Test func twoPeopleCrossingKeepTheirIdentities() throws {
        var tracker = SubjectTracker()
        // A walks right from 0.2, B walks left from 0.8; they pass at 0.5 after 2 s. While they
        // overlap the detector sees only the nearer one (A, a little larger).
        Self.run(&tracker, seconds: 4) { t in
            let a = Self.person(0.2 + 0.15 * t, height: 0.22), b = Self.person(0.8 - 0.15 * t, 0.52, height: 0.2)
            return abs(a.box.centreX - b.box.centreX) < 0.08 ? [a] : [a, b]
        }
        let tracks = tracker.tracks.sorted { $0.id < $1.id }
        try #require(tracks.count == 2)
        #expect(tracks[0].box(at: 3.9).centreX > 0.7 && tracks[0].velocity.x > 0, "A kept its identity past B")
        #expect(tracks[1].box(at: 3.9).centreX < 0.3 && tracks[1].velocity.x < 0, "B kept its own")
    }

    @Test func aSmallFastSubjectIsFollowedWhenItsPredictionOverlapsNothing() {
        var tracker = SubjectTracker()
        // A skier far away: 5 % of the picture high, crossing it in three seconds.
        Self.run(&tracker, seconds: 2.5) { t in [Self.person(0.1 + 0.3 * t, height: 0.05)] }
        #expect(tracker.tracks.map(\.id) == [1])
    }

    @Test func aPasserByDoesNotTakeOverTheSubject() {
        var tracker = SubjectTracker()
        Self.run(&tracker, seconds: 1) { _ in [Self.person(0.5)] }
        let subject = tracker.subject?.id
        // Someone larger walks in from the edge.
        Self.run(&tracker, from: 1, seconds: 2) { t in [Self.person(0.5), Self.person(0.05 + 0.2 * (t - 1), height: 0.5)] }
        #expect(tracker.tracks.count == 2)
        #expect(tracker.subject?.id == subject)
        #expect(!tracker.subjectTapped)
    }

    @Test func aTapChoosesThePersonAndATapElsewhereClearsTheChoice() throws {
        var tracker = SubjectTracker()
        Self.run(&tracker, seconds: 1) { _ in [Self.person(0.5), Self.person(0.15)] }
        let central = try #require(tracker.subject).id
        let chose = tracker.tap(x: 0.15, y: 0.5, at: 0.95)
        #expect(chose)
        #expect(tracker.subject.map { $0.id != central } == true && tracker.subjectTapped)
        let choseNobody = tracker.tap(x: 0.9, y: 0.1, at: 0.95)
        #expect(!choseNobody, "nobody there")
        #expect(!tracker.subjectTapped && tracker.subject?.id == central, "the rule chooses again: the one in the middle")
    }

    @Test func onASlowMachineAPersonSeenASecondApartIsStillFollowed() throws {
        // An emulated machine or a small board: a detection a second.
        var tracker = SubjectTracker()
        for second in 0..<5 { tracker.update(with: [Self.person(0.3 + 0.05 * Double(second))], at: Double(second)) }
        try #require(tracker.tracks.map(\.id) == [1], "confirmed by its second sighting and kept")
        #expect(tracker.subject?.id == 1)
        #expect(abs(tracker.tracks[0].velocity.x - 0.05) < 0.02, "its speed learnt: \(tracker.tracks[0].velocity.x)")
        // An emulator under load: five seconds between detections, from the first.
        var slower = SubjectTracker()
        for step in 0..<4 { slower.update(with: [Self.person(0.3 + 0.1 * Double(step))], at: 5 * Double(step)) }
        #expect(slower.tracks.map(\.id) == [1] && slower.subject?.id == 1)
    }

    @Test func tracksEndUnseenAndAStrayDetectionNeverBecomesTheSubject() {
        var tracker = SubjectTracker()
        tracker.update(with: [Self.person(0.8, height: 0.6)], at: 0)
        #expect(tracker.subject == nil, "one detection is not yet a person")
        Self.run(&tracker, from: 0.1, seconds: 0.5) { _ in [] }
        #expect(tracker.tracks.isEmpty, "a stray detection ends soon")
        Self.run(&tracker, from: 1, seconds: 1) { _ in [Self.person(0.5)] }
        Self.run(&tracker, from: 2, seconds: SubjectTracker.maximumCoastSeconds + 0.2) { _ in [] }
        #expect(tracker.tracks.isEmpty && tracker.subject == nil, "unseen for longer than an occlusion: gone")
    }
}

/// Where the detector looks: around a small subject, the whole frame now and then.
@Suite("Detection plan")
struct DetectionPlanTests {
    @Test func aSmallSubjectIsLookedForInASquareAroundIt() throws {
        let subject = FrameBox(centreX: 0.6, centreY: 0.5, width: 0.02, height: 0.06)
        let region = try #require(DetectionPlan.region(around: subject, detection: 1, aspect: 16.0 / 9))
        #expect(abs(region.height - 0.3) < 1e-12, "never smaller than 0.3 of the frame")
        #expect(abs(region.width * 16 / 9 - region.height) < 1e-12, "square in pixels")
        #expect(abs(region.centreX - 0.6) < 1e-12 && abs(region.centreY - 0.5) < 1e-12)
        let larger = try #require(DetectionPlan.region(around: FrameBox(centreX: 0.5, centreY: 0.5, width: 0.1, height: 0.2),
                                                       detection: 2, aspect: 1))
        #expect(abs(larger.height - 0.6) < 1e-12, "three times the subject's height")
    }

    @Test func theWholeFrameNowAndThenForLargeSubjectsAndWithoutOne() {
        let small = FrameBox(centreX: 0.5, centreY: 0.5, width: 0.02, height: 0.06)
        #expect(DetectionPlan.region(around: small, detection: 4, aspect: 1) == nil, "every fourth: people coming in")
        #expect(DetectionPlan.region(around: nil, detection: 1, aspect: 1) == nil)
        #expect(DetectionPlan.region(around: FrameBox(x: 0.4, y: 0.3, width: 0.2, height: 0.5), detection: 1, aspect: 1) == nil)
    }

    @Test func theRegionStaysInsideTheFrame() throws {
        let corner = FrameBox(centreX: 0.99, centreY: 0.02, width: 0.02, height: 0.05)
        let region = try #require(DetectionPlan.region(around: corner, detection: 1, aspect: 4.0 / 3))
        #expect(region.x >= 0 && region.x + region.width <= 1 + 1e-12)
        #expect(region.y >= 0 && region.y + region.height <= 1 + 1e-12)
    }
}
