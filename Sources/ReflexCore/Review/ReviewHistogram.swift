/// What review's histogram and blinking highlights show of the picture on screen: how many
/// pixels fall at each brightness (Rec. 709 luma, in `bins` steps), and which pixels clipped
/// (any channel at `clippedAt` or above), as one bit each for the blink to draw over.
public struct ReviewHistogram: Sendable, Equatable {
    public static let bins = 64
    /// A channel this bright (of 255) counts as clipped: JPEG's rounding keeps a blown sky a
    /// step or two below 255.
    public static let clippedAt: UInt32 = 250

    public let counts: [Int]
    /// One bit a pixel, rows `width` long, set where it clipped.
    public let clipped: [UInt64]
    public let clippedCount: Int
    public let width: Int
    public let height: Int

    /// Of `pixels`, `width` × `height` XRGB (0xXXRRGGBB), rows `width` apart.
    public init(pixels: [UInt32], width: Int, height: Int) {
        precondition(pixels.count >= width * height, "a whole picture")
        var counts = [Int](repeating: 0, count: ReviewHistogram.bins)
        var clipped = [UInt64](repeating: 0, count: (width * height + 63) / 64)
        var clippedCount = 0
        for index in 0..<(width * height) {
            let pixel = pixels[index]
            let (red, green, blue) = ((pixel >> 16) & 0xFF, (pixel >> 8) & 0xFF, pixel & 0xFF)
            // Rec. 709 luma in integers (weights of 2^16).
            let luma = (13_933 * red + 46_871 * green + 4_732 * blue) >> 16
            counts[Int(luma) * ReviewHistogram.bins / 256] += 1
            if max(red, green, blue) >= ReviewHistogram.clippedAt {
                clipped[index / 64] |= 1 << UInt64(index % 64)
                clippedCount += 1
            }
        }
        (self.counts, self.clipped, self.clippedCount, self.width, self.height) = (counts, clipped, clippedCount, width, height)
    }

    public func isClipped(x: Int, y: Int) -> Bool {
        let index = y * width + x
        return clipped[index / 64] & (1 << UInt64(index % 64)) != 0
    }
}
