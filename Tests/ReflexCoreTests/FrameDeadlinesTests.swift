import ReflexCore
import Testing

/// The two parts of a frame: the picture early enough, the latch (what shows input) as late
/// as it safely can be.
@Suite struct FrameDeadlinesTests {
    let interval = 1.0 / 60

    @Test func theLatchComesItsSlowestRunAndAMarginBeforeTheVblank() {
        var deadlines = FrameDeadlines()
        for _ in 0..<FrameDeadlines.window { deadlines.record(pictureSeconds: 0.0015, latchSeconds: 0.0003) }
        #expect(abs(deadlines.latchLead(interval: interval) - (0.0003 + FrameDeadlines.minimumMargin)) < 1e-9)
        // The picture: done before the latch with twice its time, or 2 ms beyond it.
        #expect(abs(deadlines.pictureLead(interval: interval) - (deadlines.latchLead(interval: interval) + 0.0035)) < 1e-9)
        for _ in 0..<FrameDeadlines.window { deadlines.record(pictureSeconds: 0.004, latchSeconds: 0.0003) }
        #expect(abs(deadlines.pictureLead(interval: interval) - (deadlines.latchLead(interval: interval) + 0.008)) < 1e-9)
    }

    @Test func aLoneSlowLatchIsNotPlannedForButTwoAre() {
        var deadlines = FrameDeadlines()
        for _ in 0..<FrameDeadlines.window { deadlines.record(pictureSeconds: 0.001, latchSeconds: 0.0003) }
        deadlines.record(pictureSeconds: 0.001, latchSeconds: 0.003)
        #expect(deadlines.latchLead(interval: interval) < 0.001)
        deadlines.record(pictureSeconds: 0.001, latchSeconds: 0.003)
        #expect(abs(deadlines.latchLead(interval: interval) - (0.003 + FrameDeadlines.minimumMargin)) < 1e-9)
        // A second later both are out of the window.
        for _ in 0..<FrameDeadlines.window { deadlines.record(pictureSeconds: 0.001, latchSeconds: 0.0003) }
        #expect(deadlines.latchLead(interval: interval) < 0.001)
    }

    @Test func leadsNeverExceedTheInterval() {
        var deadlines = FrameDeadlines()
        for _ in 0..<FrameDeadlines.window { deadlines.record(pictureSeconds: 0.030, latchSeconds: 0.020) }
        #expect(deadlines.latchLead(interval: interval) == interval / 2)
        #expect(deadlines.pictureLead(interval: interval) == interval)
    }

    /// A frame latched on time that still missed its vblank moves the latch half a
    /// millisecond earlier (up to a bound); a miss the latch did not cause (a late picture) does not.
    @Test func missesMoveTheLatchEarlierAndCleanFramesBringItBack() {
        var deadlines = FrameDeadlines()
        deadlines.flipCompleted(missed: true, latchedOnTime: false)
        #expect(deadlines.margin == FrameDeadlines.minimumMargin)
        deadlines.flipCompleted(missed: true, latchedOnTime: true)
        #expect(abs(deadlines.margin - (FrameDeadlines.minimumMargin + 0.0005)) < 1e-12)
        for _ in 0..<20 { deadlines.flipCompleted(missed: true, latchedOnTime: true) }
        #expect(deadlines.margin == FrameDeadlines.maximumMargin)
        for _ in 0..<120 { deadlines.flipCompleted(missed: false, latchedOnTime: true) }
        #expect(abs(deadlines.margin - (FrameDeadlines.maximumMargin - 0.0001)) < 1e-12)
        for _ in 0..<120 * 100 { deadlines.flipCompleted(missed: false, latchedOnTime: true) }
        #expect(deadlines.margin == FrameDeadlines.minimumMargin)
    }

    @Test func theComingVblankKeepsItsPhaseAfterAPause() {
        #expect(abs(FrameDeadlines.vblank(after: 10.001, lastFlip: 10, interval: interval) - (10 + interval)) < 1e-9)
        let later = FrameDeadlines.vblank(after: 12.5001, lastFlip: 10, interval: interval)
        #expect(later > 12.5001 && later - 12.5001 <= interval)
        #expect(abs(((later - 10) / interval).rounded() * interval - (later - 10)) < 1e-9)
        // Right at a flip, the vblank after it.
        #expect(abs(FrameDeadlines.vblank(after: 10, lastFlip: 10, interval: interval) - (10 + interval)) < 1e-9)
    }
}
