/// A Bayer frame's brightness at decreasing sizes, for aligning a burst coarse to fine (as
/// HDR+ does): level 0 is each 2×2 Bayer cell's mean (half the frame's width and height), each
/// next level halves it again, down to `smallest` pixels on the short side.
public struct GreyPyramid: Sendable {
    public struct Level: Sendable {
        public let width: Int
        public let height: Int
        public var pixels: [Float]
    }

    public let levels: [Level]

    /// `samples`: a `width`×`height` Bayer frame, a line after another.
    public init(bayer samples: [UInt16], width: Int, height: Int, smallest: Int = 24) {
        precondition(samples.count >= width * height, "a whole Bayer frame")
        self = samples.withUnsafeBufferPointer { GreyPyramid(bayer: $0.baseAddress!, width: width, height: height, smallest: smallest) }
    }

    /// `samples`: a `width`×`height` Bayer frame, a line after another (read during the call only).
    public init(bayer samples: UnsafePointer<UInt16>, width: Int, height: Int, smallest: Int = 24) {
        precondition(width % 2 == 0 && height % 2 == 0, "a whole Bayer frame")
        var level = Level(width: width / 2, height: height / 2, pixels: [Float](repeating: 0, count: width * height / 4))
        for y in 0..<level.height {
            for x in 0..<level.width {
                let i = 2 * y * width + 2 * x
                let sum = Int(samples[i]) + Int(samples[i + 1]) + Int(samples[i + width]) + Int(samples[i + width + 1])
                level.pixels[y * level.width + x] = Float(sum) / 4
            }
        }
        var levels = [level]
        while min(level.width, level.height) / 2 >= smallest {
            var next = Level(width: level.width / 2, height: level.height / 2,
                             pixels: [Float](repeating: 0, count: (level.width / 2) * (level.height / 2)))
            for y in 0..<next.height {
                for x in 0..<next.width {
                    let i = 2 * y * level.width + 2 * x
                    next.pixels[y * next.width + x] = (level.pixels[i] + level.pixels[i + 1] + level.pixels[i + level.width]
                        + level.pixels[i + level.width + 1]) / 4
                }
            }
            levels.append(next)
            level = next
        }
        self.levels = levels
    }
}
