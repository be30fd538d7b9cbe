import ReflexCore
import Testing

/// Review's histogram and blinking highlights (issue 34).
@Suite struct ReviewHistogramTests {
    @Test func brightnessesAreCountedAndClippedPixelsMarked() {
        // A 10×4 picture: black, mid grey, a blown sky (white), a red that clipped in one channel.
        var pixels = [UInt32](repeating: 0xFF00_0000, count: 40)
        for x in 0..<10 { pixels[10 + x] = 0xFF80_8080; pixels[20 + x] = 0xFFFF_FFFF }
        pixels[35] = 0xFFFF_2010
        let histogram = ReviewHistogram(pixels: pixels, width: 10, height: 4)
        #expect(histogram.counts.reduce(0, +) == 40)
        #expect(histogram.counts[0] == 19 && histogram.counts[63] == 10 && histogram.counts[32] == 10 && histogram.counts[19] == 1)
        #expect(histogram.clippedCount == 11)
        #expect(histogram.isClipped(x: 0, y: 2) && histogram.isClipped(x: 5, y: 3) && !histogram.isClipped(x: 4, y: 3))
        #expect(!histogram.isClipped(x: 0, y: 1))
    }
}
