import ReflexCore
import Testing

@Suite struct FrameTimeRingTests {
    @Test func percentilesAreNearestRankOverTheFramesInTheRing() {
        var ring = FrameTimeRing(capacity: 100)
        for i in 1...100 { ring.record(microseconds: i * 100, at: Double(i) / 60) }
        let summary = ring.summary()
        #expect(summary.frames == 100)
        #expect(summary.p50 == 5.0)
        #expect(summary.p99 == 9.9)
        #expect(summary.maximum == 10.0)
        #expect(abs(summary.framesPerSecond - 60) < 0.01)
    }

    /// Each frame's time, and of it the time the loop's thread ran: a frame that waited on a
    /// host that took the CPU away is slow on the clock, not in what it ran.
    @Test func theTimeTheThreadRanIsSummarisedBesideTheClocks() {
        var ring = FrameTimeRing(capacity: 100)
        for i in 1...99 { ring.record(microseconds: 4000, runningMicroseconds: 3900, at: Double(i) / 60) }
        ring.record(microseconds: 14_000, runningMicroseconds: 4100, at: 100.0 / 60)
        let summary = ring.summary()
        #expect(summary.maximum == 14.0 && summary.runningMaximum == 4.1)
        #expect(summary.runningP50 == 3.9 && summary.p50 == 4.0)
        #expect(summary.description.contains("max 14.00 ms (running p50 3.90, p99 3.90, max 4.10 ms)"), "\(summary)")
        // Without a running time, a frame ran all of it; never more than all of it.
        var plain = FrameTimeRing(capacity: 2)
        plain.record(microseconds: 2000, at: 0)
        plain.record(microseconds: 1000, runningMicroseconds: 5000, at: 1)
        #expect(plain.summary().runningMaximum == 2.0)
        var copy = FrameTimeRing(capacity: 100)
        copy.copy(from: ring)
        #expect(copy.summary() == summary)
    }

    /// One stretch of a run (a burst being saved): the frames, misses and rate since a copy
    /// made before it, not the warm-up's.
    @Test func aStretchIsSummarisedSinceACopyMadeBeforeIt() {
        var ring = FrameTimeRing(capacity: 100)
        for i in 1...30 { ring.record(microseconds: 20_000, at: Double(i) / 60, missed: 1) }
        var before = FrameTimeRing(capacity: 100)
        before.copy(from: ring)
        for i in 31...60 { ring.record(microseconds: 2000 + (i == 60 ? 3000 : 0), at: Double(i) / 30) }
        let stretch = ring.summary(since: before)
        #expect(stretch.frames == 30 && stretch.missedVblanks == 0)
        #expect(stretch.p50 == 2.0 && stretch.maximum == 5.0, "the warm-up's slow frames are not in it: \(stretch)")
        #expect(ring.summary().maximum == 20.0 && ring.summary().missedVblanks == 30)
        #expect(abs(stretch.framesPerSecond - 30 / (2 - 0.5)) < 0.01)
    }

    @Test func theOldestFramesAreOverwritten() {
        var ring = FrameTimeRing(capacity: 10)
        for _ in 0..<10 { ring.record(microseconds: 50_000, at: 0) }
        for i in 0..<10 { ring.record(microseconds: 1000, at: Double(i + 1)) }
        #expect(ring.summary().maximum == 1.0, "the slow frames left the ring")
        #expect(ring.summary().frames == 20, "but were counted")
    }

    @Test func missedVblanksAndAllocationsAddUp() {
        var ring = FrameTimeRing(capacity: 8)
        ring.record(microseconds: 1000, at: 0, missed: 0, allocations: 12)
        ring.record(microseconds: 20_000, at: 1, missed: 1)
        ring.record(microseconds: 1000, at: 2, missed: 2, allocations: 1)
        let summary = ring.summary()
        #expect(summary.missedVblanks == 3)
        #expect(summary.allocations == 13)
        #expect(summary.allocatingFrames == 2)
        #expect(summary.description.contains("3 missed vblanks, 13 allocations in 2 frames"))
    }

    @Test func aCopyIsIndependentOfTheRingItCameFrom() {
        var ring = FrameTimeRing(capacity: 4)
        ring.record(microseconds: 2000, at: 0)
        var copy = FrameTimeRing(capacity: 4)
        copy.copy(from: ring)
        ring.record(microseconds: 9000, at: 1)
        #expect(copy.summary().maximum == 2.0)
        #expect(copy.summary().frames == 1)
    }

    @Test func anEmptyRingSaysSo() {
        #expect(FrameTimeRing().summary().frames == 0)
    }
}

@Suite struct ProRevealTests {
    @Test func itEasesInAndOutOverFourHundredMilliseconds() {
        var reveal = ProDialsSlide(shown: false)
        #expect(reveal.progress(at: 10) == 0)
        reveal.set(shown: true, at: 10)
        #expect(reveal.progress(at: 10) == 0)
        #expect(abs(reveal.progress(at: 10.2) - 0.5) < 1e-9, "half way at half time")
        #expect(reveal.progress(at: 10.04) < 0.04, "slow start")
        #expect(reveal.progress(at: 10.36) > 0.96, "slow end")
        #expect(reveal.progress(at: 10.4) == 1)
        #expect(reveal.isSettled(at: 10.4))
        #expect(!reveal.isSettled(at: 10.3))
        #expect((0.3...0.5).contains(ProDialsSlide.duration), "a 300–500 ms animation")
    }

    @Test func aReversalStartsFromWhereTheAnimationHadGot() {
        var reveal = ProDialsSlide(shown: false)
        reveal.set(shown: true, at: 0)
        let beforeReversal = reveal.progress(at: 0.1)  // a quarter of the way in
        reveal.set(shown: false, at: 0.1)
        let atReversal = reveal.progress(at: 0.1)
        #expect(abs(atReversal - beforeReversal) < 1e-12, "no jump when the direction changes")
        #expect(atReversal > 0 && atReversal < 0.5)
        #expect(reveal.progress(at: 0.2) == 0, "and goes back in the time it had taken")
    }
}
