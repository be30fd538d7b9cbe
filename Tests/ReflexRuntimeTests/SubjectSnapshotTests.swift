import ReflexCore
import ReflexISP
import ReflexRuntime
import Testing

/// What the loop makes of the analysis's newest snapshot as it ages: predicted one detection
/// ahead, then held; held too while the analysis is busy on the next frame (a slow or busy
/// machine); nothing once the analysis stopped or was paused.
@Suite struct SubjectSnapshotTests {
    /// A subject walking right at 0.1 of the picture a second, seen three times a second apart
    /// (confirmed), the detections a second apart (so `staleAfter` is 3 s).
    static func snapshot() throws -> SubjectSnapshot {
        var tracker = SubjectTracker()
        for second in 0...2 {
            let box = FractionalBox(centreX: 0.3 + 0.1 * Double(second), centreY: 0.5, width: 0.1, height: 0.3)
            tracker.update(with: [PersonDetection(box: box, confidence: 0.9)], at: Double(second))
        }
        let subject = try #require(tracker.subject)
        var snapshot = SubjectSnapshot()
        snapshot.time = 2
        snapshot.publishedAt = 2.1
        snapshot.subject = subject
        snapshot.detectionInterval = 1
        return snapshot
    }

    @Test func aFreshSubjectIsPredictedOneDetectionAheadThenHeld() throws {
        let snapshot = try Self.snapshot()
        #expect(snapshot.staleAfter == 3 && snapshot.predictionSeconds == 1)
        let soon = try #require(snapshot.subject(at: 2.5))
        #expect(abs(soon.box.centreX - 0.55) < 0.03, "half a second on at its speed: \(soon.box.centreX)")
        #expect(soon.velocityX > 0.05)
        let later = try #require(snapshot.subject(at: 3.1), "not lost before staleAfter")
        let due = try #require(snapshot.subject(at: 4.999))
        #expect(later == due && later.velocityX == 0, "held where the next detection was due")
        #expect(abs(later.box.centreX - 0.6) < 0.03)
    }

    @Test func whileTheAnalysisIsBusyTheSubjectIsHeldStill() throws {
        var snapshot = try Self.snapshot()
        // The analysis took the next frame at 2.2 s and is still on it at 20 s.
        snapshot.analysing = 2.2
        let held = try #require(snapshot.subject(at: 20), "no news is not a lost subject")
        let last = try #require(snapshot.subject(at: 4.999))
        #expect(abs(held.box.centreX - last.box.centreX) < 0.01, "where it was last predicted")
        #expect(held.velocityX == 0 && held.velocityY == 0 && held.heightVelocity == 0, "still")
        #expect(snapshot.subject(at: 30) == held, "however long the analysis takes")
    }

    @Test func aDetectionSlowerThanStaleAfterHoldsTheSubjectToo() throws {
        var snapshot = try Self.snapshot()
        // Published 18 s after its frame (a machine that stalled), the next frame taken at once.
        (snapshot.publishedAt, snapshot.analysing) = (20, 20.1)
        #expect(snapshot.subject(at: 25) != nil)
    }

    @Test func aStoppedOrPausedAnalysisPredictsNothing() throws {
        var snapshot = try Self.snapshot()
        #expect(snapshot.subject(at: 5.5) == nil, "idle: nothing newer is coming")
        // Paused, then resumed: the frame it works on came long after this snapshot.
        snapshot.analysing = 60
        #expect(snapshot.subject(at: 61) == nil)
    }
}
