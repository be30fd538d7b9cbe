import Testing
@testable import ReflexRuntime

/// The wait from an input to the flip that shows it, as the loop measures it.
@Suite struct InputToScreenTests {
    @Test func theWaitRunsFromTheOldestInputToTheFlipOfTheFrameShowingIt() {
        var watch = InputToScreen()
        watch.inputTaken(visibleAt: 10.000)
        watch.inputTaken(visibleAt: 10.004)
        // A frame queued before the painter caught up does not show the input yet.
        watch.frameQueued(showsNewestInput: false)
        #expect(watch.flipped(at: 10.016) == nil)
        watch.frameQueued(showsNewestInput: true)
        let waited = watch.flipped(at: 10.033)
        #expect(waited.map { abs($0 - 0.033) < 1e-9 } == true)
        // Counted once: the next flip carries no input.
        #expect(watch.flipped(at: 10.050) == nil)
    }

    @Test func inputWithNothingToSeeStartsNoWait() {
        var watch = InputToScreen()
        watch.inputTaken(visibleAt: nil)
        watch.frameQueued(showsNewestInput: true)
        #expect(watch.flipped(at: 1) == nil)
    }
}
