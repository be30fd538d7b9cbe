import Testing
@testable import ReflexHardware

/// The turn between two flips both displays keep: prepare, queue once, flip.
@Suite struct FlipCycleTests {
    @Test func aPictureIsPreparedOnlyWhileNoFlipIsPendingAndQueuedOnce() throws {
        var cycle = FlipCycle()
        let nothingToQueue = cycle.takePrepared()
        #expect(!nothingToQueue)
        var drawn = 0
        let prepared = try cycle.prepare { drawn += 1 }
        let queued = cycle.takePrepared(), queuedAgain = cycle.takePrepared()
        #expect(prepared && queued && !queuedAgain)
        cycle.flipQueued()
        // While the flip is pending the back buffer is the one scanned out next: no drawing.
        let preparedWhilePending = try cycle.prepare { drawn += 1 }
        #expect(!preparedWhilePending && drawn == 1 && cycle.flipPending)
        cycle.flipEnded()
        let preparedAfter = try cycle.prepare { drawn += 1 }
        #expect(preparedAfter && drawn == 2)
    }

    @Test func aDrawThatFailsLeavesNothingToQueue() {
        var cycle = FlipCycle()
        var failed = false
        do {
            _ = try cycle.prepare { () throws(DisplayError) in throw DisplayError("no buffer") }
        } catch {
            failed = true
        }
        let queued = cycle.takePrepared()
        #expect(failed && !queued)
    }
}
