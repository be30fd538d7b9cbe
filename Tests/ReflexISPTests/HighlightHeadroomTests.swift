import Testing
import ReflexISP

/// Enhanced RAW's underexposure as pure logic: a third of a stop at a metering, darker while
/// anything clips, brighter only when nothing is near clipping, held in between, bounded.
@Suite struct HighlightHeadroomTests {
    @Test func clippingDarkensAThirdAtATimeUpToTwoStops() {
        var headroom = HighlightHeadroom()
        #expect(headroom.update(clippedFraction: 0.005, nearClippingFraction: 0.02) == 1.0 / 3)
        #expect(headroom.update(clippedFraction: 0.005, nearClippingFraction: 0.02) == 2.0 / 3)
        // Much of the frame clipped: two thirds at once.
        #expect(headroom.update(clippedFraction: 0.05, nearClippingFraction: 0.2) == 4.0 / 3)
        for _ in 0..<10 { headroom.update(clippedFraction: 0.05, nearClippingFraction: 0.2) }
        #expect(headroom.stops == HighlightHeadroom.mostStops)
    }

    @Test func betweenClippingAndRoomItHolds() {
        var headroom = HighlightHeadroom()
        headroom.update(clippedFraction: 0.01, nearClippingFraction: 0.05)
        // Nothing clips, but a stop more would clip some: it stays, however long.
        for _ in 0..<20 { headroom.update(clippedFraction: 0, nearClippingFraction: 0.01) }
        #expect(headroom.stops == 1.0 / 3)
        // Nothing near clipping any more (the sun went in): back toward no underexposure.
        headroom.update(clippedFraction: 0, nearClippingFraction: 0)
        #expect(headroom.stops == 0)
        headroom.update(clippedFraction: 0, nearClippingFraction: 0)
        #expect(headroom.stops == 0, "never below none")
    }
}
