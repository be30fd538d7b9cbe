import ReflexCore
import ReflexISP
import Testing

/// Detections become tracks: identities kept through misses, crossings and occlusions, with
/// the time injected (detections 10 a second, as the analysis thread gives them).
@Suite("Subject tracker")
struct SubjectTrackerTests {
    static let step = 0.1

    static func person(_ centreX: Double, _ centreY: Double = 0.5, height: Double = 0.2) -> PersonDetection {
        PersonDetection(box: FractionalBox(centreX: centreX, centreY: centreY, width: height * 0.4, height: height), confidence: 0.9)
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

    @Test func aPasserByDoesNotTakeOverAMovingSubject() {
        var tracker = SubjectTracker()
        // The skier crosses slowly; someone larger walks in from the edge, the other way.
        Self.run(&tracker, seconds: 2) { t in [Self.person(0.3 + 0.1 * t)] }
        let subject = tracker.subject?.id
        Self.run(&tracker, from: 2, seconds: 2) { t in
            [Self.person(0.3 + 0.1 * t), Self.person(0.95 - 0.2 * (t - 2), height: 0.5)]
        }
        #expect(tracker.tracks.count == 2)
        #expect(tracker.subject?.id == subject)
        #expect(!tracker.subjectTapped)
    }

    @Test func theOneMovingAcrossTheSceneBeatsThoseStandingStill() throws {
        var tracker = SubjectTracker()
        // Two large people stand by the middle; a small skier comes in from the left.
        let still = [Self.person(0.45, height: 0.6), Self.person(0.6, height: 0.55)]
        Self.run(&tracker, seconds: 1) { _ in still }
        let standing = try #require(tracker.subject).id
        #expect(!tracker.subject!.isMoving(at: 0.9, aspect: tracker.aspect), "standing still")
        Self.run(&tracker, from: 1, seconds: 3) { t in still + [Self.person(0.05 + 0.15 * (t - 1), 0.7, height: 0.12)] }
        let skier = try #require(tracker.tracks.first { $0.box(at: 3.9).height < 0.2 })
        #expect(skier.isMoving(at: 3.9, aspect: tracker.aspect), "moving: \(skier.travel(at: 3.9, aspect: tracker.aspect)) heights")
        #expect(tracker.subject?.id == skier.id, "the skier, not \(standing) standing by")
        #expect(!tracker.subjectTapped)
    }

    @Test func onASlowBoardTheOneMovingStillBeatsThoseStandingStill() throws {
        // Detections five seconds apart (an emulated board): a large person stands near the
        // middle; a smaller one walks slowly across the right half, a twelfth of their height a
        // second. Only "lately" spanning a few detections lets the walker be seen to move: were
        // it two seconds, where they have been would jump to each sighting.
        var tracker = SubjectTracker()
        let gap = 5.0, still = Self.person(0.45, height: 0.45)
        let walker = { (t: Double) in Self.person(0.5 + 0.012 * (t - 20), 0.55, height: 0.25) }
        for index in 0..<4 { tracker.update(with: [still], at: Double(index) * gap) }
        let standing = try #require(tracker.subject).id
        for index in 4...11 {
            let time = Double(index) * gap
            tracker.update(with: [still, walker(time)], at: time)
        }
        let walking = try #require(tracker.tracks.first { $0.box(at: 55).height < 0.3 })
        #expect(tracker.tracks.count == 2, "one track each: \(tracker.tracks.map(\.id))")
        #expect(walking.isMoving(at: 55, aspect: tracker.aspect), "moving: \(walking.travel(at: 55, aspect: tracker.aspect)) heights")
        #expect(tracker.subject?.id == walking.id, "the walker, not \(standing) standing by")
    }

    @Test func onAVerySlowBoardAWalkerToAndFroTakesOverWithinAFewSightings() throws {
        // Detections 35 s apart (a fresh machine's emulator): the pair course's walker goes to
        // and fro faster than that, so each sighting falls anywhere on their path and the
        // average of where they have been hardly moves; the still person beside them was
        // chosen first. The places they are found at say they move, and three sightings that
        // far apart are enough to take over.
        var tracker = SubjectTracker()
        let gap = 35.0, still = Self.person(0.18, 0.57, height: 0.42)
        let path = [0.63, 0.70, 0.58, 0.66, 0.71, 0.56]
        for index in 0..<4 { tracker.update(with: [still], at: Double(index) * gap) }
        let standing = try #require(tracker.subject).id
        var sightingsToTakeOver: Int?
        for (sighting, x) in path.enumerated() {
            let time = Double(4 + sighting) * gap
            tracker.update(with: [still, Self.person(x, 0.6, height: 0.3)], at: time)
            if sightingsToTakeOver == nil, let subject = tracker.subject, subject.id != standing { sightingsToTakeOver = sighting + 1 }
        }
        #expect(tracker.tracks.count == 2, "one track each: \(tracker.tracks.map(\.id))")
        let taken = try #require(sightingsToTakeOver, "the still person \(standing) kept through \(path.count) sightings of the walker")
        #expect(taken <= 4, "the walker took over at their sighting \(taken)")
        let time = Double(3 + path.count) * gap
        #expect(tracker.tracks.first { $0.id == standing }.map { $0.isStill(at: time, aspect: tracker.aspect) } == true,
                "the person standing by is still")
    }

    @Test func aTappedPersonStandingStillIsKeptWhileOthersMove() throws {
        var tracker = SubjectTracker()
        Self.run(&tracker, seconds: 1) { _ in [Self.person(0.3, height: 0.5)] }
        let chose = tracker.tap(x: 0.3, y: 0.5, at: 0.95)
        #expect(chose)
        let chosen = try #require(tracker.subject).id
        Self.run(&tracker, from: 1, seconds: 3) { t in [Self.person(0.3, height: 0.5), Self.person(0.6 + 0.1 * (t - 1))] }
        #expect(tracker.subject?.id == chosen && tracker.subjectTapped, "the photographer's choice holds")
    }

    @Test func aPersonWhereTheDetectorDidNotLookIsNotMissed() throws {
        var tracker = SubjectTracker()
        let left = FractionalBox(x: 0, y: 0, width: 0.5, height: 1), right = FractionalBox(x: 0.5, y: 0, width: 0.5, height: 1)
        // Seen twice in the left half, then the detector looks only at the right for two seconds.
        Self.run(&tracker, seconds: 0.2) { _ in [Self.person(0.25)] }
        for step in 0..<20 { tracker.update(with: [], lookedAt: [right], at: 0.2 + 0.1 * Double(step)) }
        let track = try #require(tracker.tracks.first, "not looked for: still followed")
        #expect(track.missedLooks == 0 && tracker.subject?.id == track.id)
        // Looked for where they are and not found: gone after an occlusion's time, as before.
        for step in 0..<15 { tracker.update(with: [], lookedAt: [left], at: 2.2 + 0.1 * Double(step)) }
        #expect(tracker.tracks.isEmpty)
    }

    @Test func aPersonTheSweepLooksAtNowAndThenSurvivesAMiss() throws {
        var tracker = SubjectTracker()
        let left = FractionalBox(x: 0, y: 0, width: 0.5, height: 1), right = FractionalBox(x: 0.5, y: 0, width: 0.5, height: 1)
        Self.run(&tracker, seconds: 0.3) { _ in [Self.person(0.25)] }
        // Looked at once a second (the sweep), missed the first time, found the next.
        for step in 0..<30 {
            let time = 0.3 + 0.1 * Double(step), looking = step % 10 == 9
            tracker.update(with: looking && step > 10 ? [Self.person(0.25)] : [], lookedAt: [looking ? left : right], at: time)
        }
        #expect(tracker.tracks.map(\.id) == [1], "one miss a second apart is not gone")
    }

    @Test func partOfAStillPersonIsNoSkier() throws {
        var tracker = SubjectTracker()
        let still = Self.person(0.3, height: 0.6)
        Self.run(&tracker, seconds: 2.5) { _ in [still] }
        let standing = try #require(tracker.subject).id
        // A box sliding about inside them (their head and shoulders, an arm, found apart).
        Self.run(&tracker, from: 2.5, seconds: 3) { t in [still, Self.person(0.22 + 0.053 * (t - 2.5), 0.4, height: 0.2)] }
        #expect(tracker.subject?.id == standing, "a part of someone is not someone moving")
    }

    @Test func aPersonNeverLookedForEndsAfterAWhile() {
        var tracker = SubjectTracker()
        let right = FractionalBox(x: 0.5, y: 0, width: 0.5, height: 1)
        Self.run(&tracker, seconds: 0.2) { _ in [Self.person(0.25)] }
        for step in 0..<60 { tracker.update(with: [], lookedAt: [right], at: 0.2 + 0.1 * Double(step)) }
        #expect(tracker.tracks.isEmpty, "a ghost does not live on where nobody looks")
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
