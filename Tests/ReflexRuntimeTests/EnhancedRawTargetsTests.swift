import ReflexBench
import ReflexHardware
import Testing

/// Enhanced RAW's picture targets (issue 33) as properties of the data: `reflex bench merge`'s
/// own figures on the simulated sensor, at a smaller size, held to the targets. The
/// frames come from seeds, so the figures are the same on any machine.
@Suite("Enhanced RAW: alignment and dynamic range")
struct EnhancedRawTargetsTests {
    static let bench = MergeQualityBench(frames: 8, width: 512, height: 384)

    @Test func aHandheldBurstMergesAsSharpAsOneFrameAndCleaner() {
        let figures = Self.bench.alignment()
        #expect(figures.merged >= 0.95 * figures.oneFrame, "detail kept \(figures.merged) against one frame's \(figures.oneFrame)")
        #expect(figures.lessNoise >= 1.8, "the merge is \(figures.lessNoise)× closer to the truth than one frame")
        // The measure sees a shake left in: the frames averaged as shot are far softer, and
        // even aligned to the even pixel the Bayer pattern allows, an average loses detail the
        // robust merge keeps.
        #expect(figures.unalignedAverage < 0.5 * figures.oneFrame)
        #expect(figures.alignedAverage < 0.9 * figures.oneFrame)
    }

    @Test func theMergeWidensTheUsableRangeByAtLeastOneAndAHalfStops() {
        let figures = Self.bench.dynamicRange()
        #expect(figures.merged - figures.oneRaw >= 1.5, "\(figures.merged) usable stops merged, \(figures.oneRaw) in one RAW")
        // Underexposing alone moves the range up without widening it: the merge widens it.
        #expect(abs(figures.oneUnderexposedFrame - figures.oneRaw) <= 1.0 / 3)
    }
}
