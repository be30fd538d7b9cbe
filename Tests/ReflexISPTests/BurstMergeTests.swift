import ReflexCore
import ReflexISP
import Testing

/// A burst aligned and merged (Enhanced RAW's core, issue 33) on synthetic Bayer frames whose
/// scene, shifts and noise are known: a textured scene moved by a hand between frames, with
/// the sensor's shot and read noise.
@Suite struct BurstMergeTests {
    static let width = 256, height = 192, black = 64, white = 4095
    static let noise = NoiseProfile(scale: 4e-4, offset: 2e-5)

    /// The scene's clean sample at Bayer pixel (x, y) of a frame moved by (dx, dy): smooth
    /// shading with edges and texture (what alignment needs), plus `square` (a subject) there.
    static func scene(_ x: Int, _ y: Int, square: (x: Int, y: Int)? = nil) -> Double {
        let fx = Double(x), fy = Double(y)
        var value = 900 + 600 * FastMath.cos(fx / 23) * FastMath.cos(fy / 17) + ((x / 12 + y / 9) % 2 == 0 ? 250 : 0)
        if let square, (square.x..<(square.x + 40)).contains(x), (square.y..<(square.y + 40)).contains(y) { value = 3500 }
        return value
    }

    /// A frame showing the scene shifted by (`dx`, `dy`) (the scene at (x + dx, y + dy) in this
    /// frame's pixel (x, y)), with noise from `seed`.
    static func frame(dx: Int, dy: Int, seed: UInt64, square: (x: Int, y: Int)? = nil) -> [UInt16] {
        var random = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        func gaussian() -> Double {
            // The sum of twelve uniforms, less six: near enough a normal variate.
            var sum = 0.0
            for _ in 0..<12 {
                random ^= random << 13
                random ^= random >> 7
                random ^= random << 17
                sum += Double(random >> 11) / Double(1 << 53)
            }
            return sum - 6
        }
        let range = Double(white - black)
        var samples = [UInt16](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let clean = scene(x + dx, y + dy, square: square)
                let signal = (clean - Double(black)) / range
                let sigma = ((noise.scale * signal + noise.offset).squareRoot()) * range
                samples[y * width + x] = UInt16(min(max(clean + sigma * gaussian(), 0), Double(white)).rounded())
            }
        }
        return samples
    }

    static func pyramid(_ samples: [UInt16]) -> GreyPyramid { GreyPyramid(bayer: samples, width: width, height: height) }

    @Test func eachTileIsFoundWhereTheHandMovedIt() {
        let reference = Self.frame(dx: 0, dy: 0, seed: 1)
        // Far beyond the finest level's search of ±4 (±8 Bayer pixels): the pyramid finds it.
        for (dx, dy) in [(6, -4), (-22, 14), (2, 0)] {
            let moved = Self.frame(dx: -dx, dy: -dy, seed: 2)
            let alignment = TileAlignment.align(Self.pyramid(moved), to: Self.pyramid(reference))
            #expect(alignment.tileSize == 32 && alignment.tilesAcross == 8 && alignment.tilesDown == 6)
            let exact = alignment.offsets.filter { $0 == SIMD2(Int32(dx), Int32(dy)) }.count
            #expect(exact * 10 >= alignment.offsets.count * 9, "(\(dx), \(dy)): \(exact) of \(alignment.offsets.count) tiles")
        }
    }

    /// A shift of an odd number of pixels, which the even offsets the colour pattern allows
    /// cannot undo, on a scene of hard edges: each edge is a pixel off in every alternate. The
    /// merge is about as good as the reference alone there (the samples beyond the noise are
    /// left out); the tiles' weights alone let enough of the edges' error in to make it a third
    /// worse.
    @Test func aShiftOfOnePixelOnHardEdgesIsNoWorseThanTheReference() {
        let reference = Self.frame(dx: 0, dy: 0, seed: 50)
        let frames = [reference] + (0..<3).map { Self.frame(dx: -1, dy: 1, seed: 51 + UInt64($0)) }
        let alignments = frames.dropFirst().map { TileAlignment.align(Self.pyramid($0), to: Self.pyramid(reference)) }
        let merged = BurstMerge.merge(frames, alignments: alignments, width: Self.width, height: Self.height,
                                      blackLevel: Self.black, whiteLevel: Self.white, noise: Self.noise)
        #expect(Self.noiseLeft(merged) <= 1.05 * Self.noiseLeft(reference), "merged \(Self.noiseLeft(merged)), alone \(Self.noiseLeft(reference))")
    }

    /// The standard deviation of `samples` from the clean scene, away from the edges.
    static func noiseLeft(_ samples: [UInt16]) -> Double {
        var sum = 0.0, count = 0
        for y in 32..<(height - 32) {
            for x in 32..<(width - 32) {
                let d = Double(samples[y * width + x]) - scene(x, y)
                sum += d * d
                count += 1
            }
        }
        return (sum / Double(count)).squareRoot()
    }

    @Test func fourFramesOfAStillSceneHalveTheNoise() {
        let frames = [Self.frame(dx: 0, dy: 0, seed: 10), Self.frame(dx: -4, dy: 2, seed: 11),
                      Self.frame(dx: 6, dy: -2, seed: 12), Self.frame(dx: -2, dy: -6, seed: 13)]
        let reference = Self.pyramid(frames[0])
        let alignments = frames.dropFirst().map { TileAlignment.align(Self.pyramid($0), to: reference) }
        let merged = BurstMerge.merge(frames, alignments: alignments, width: Self.width, height: Self.height,
                                      blackLevel: Self.black, whiteLevel: Self.white, noise: Self.noise)
        let alone = Self.noiseLeft(frames[0]), together = Self.noiseLeft(merged)
        // Four frames: half the noise at best (√4); the weights keep a little of it.
        #expect(together < 0.6 * alone, "noise \(together) merged against \(alone) in the reference alone")
        #expect(together > 0.4 * alone, "no better than four frames can be: \(together)")
    }

    /// A tile whose match the alignment put outside the frame (a wild offset at an edge) is
    /// the reference's alone.
    @Test func aTileMatchedOutsideTheFrameKeepsTheReference() {
        let frames = [Self.frame(dx: 0, dy: 0, seed: 30), Self.frame(dx: 0, dy: 0, seed: 31)]
        var alignment = TileAlignment.align(Self.pyramid(frames[1]), to: Self.pyramid(frames[0]))
        alignment.offsets[0] = SIMD2(-200, -150)
        let merged = BurstMerge.merge(frames, alignments: [alignment], width: Self.width, height: Self.height,
                                      blackLevel: Self.black, whiteLevel: Self.white, noise: Self.noise)
        #expect(merged[4 * Self.width + 4] == frames[0][4 * Self.width + 4])
    }

    @Test func aSubjectThatMovedIsNotGhosted() {
        // The reference has the subject at (100, 60); the others have it elsewhere.
        let frames = [Self.frame(dx: 0, dy: 0, seed: 20, square: (100, 60)), Self.frame(dx: 0, dy: 0, seed: 21, square: (160, 100)),
                      Self.frame(dx: 0, dy: 0, seed: 22, square: (40, 120))]
        let reference = Self.pyramid(frames[0])
        let alignments = frames.dropFirst().map { TileAlignment.align(Self.pyramid($0), to: reference) }
        let merged = BurstMerge.merge(frames, alignments: alignments, width: Self.width, height: Self.height,
                                      blackLevel: Self.black, whiteLevel: Self.white, noise: Self.noise)
        // Where the others had the subject the reference shows the scene: no bright ghost.
        func mean(_ samples: [UInt16], x: Int, y: Int) -> Double {
            var sum = 0.0
            for yy in (y + 8)..<(y + 32) { for xx in (x + 8)..<(x + 32) { sum += Double(samples[yy * Self.width + xx]) } }
            return sum / (24 * 24)
        }
        func sceneMean(x: Int, y: Int) -> Double {
            var sum = 0.0
            for yy in (y + 8)..<(y + 32) { for xx in (x + 8)..<(x + 32) { sum += Self.scene(xx, yy) } }
            return sum / (24 * 24)
        }
        for place in [(160, 100), (40, 120)] {
            #expect(abs(mean(merged, x: place.0, y: place.1) - sceneMean(x: place.0, y: place.1)) < 30, "no ghost at \(place)")
        }
        // And the reference's own subject stays whole.
        #expect(abs(mean(merged, x: 100, y: 60) - 3500) < 30)
    }

    /// The motion target as a property of the data: where a subject moved, the merge
    /// is as close to the truth as the reference frame alone (PSNR), while a plain average of
    /// the same aligned frames is visibly worse (its ghosts).
    @Test func whereTheSubjectMovedTheMergeIsAsGoodAsTheReferenceAndAnAverageIsWorse() {
        let places = [(100, 60), (130, 75), (160, 90), (190, 105)]
        let frames = places.enumerated().map { Self.frame(dx: 0, dy: 0, seed: 30 + UInt64($0.offset), square: $0.element) }
        let reference = Self.pyramid(frames[0])
        let alignments = frames.dropFirst().map { TileAlignment.align(Self.pyramid($0), to: reference) }
        func merged(_ robustness: Double) -> [UInt16] {
            BurstMerge.merge(frames, alignments: alignments, width: Self.width, height: Self.height, blackLevel: Self.black,
                             whiteLevel: Self.white, noise: Self.noise, robustness: robustness)
        }
        // PSNR over every place the subject was, against the reference's moment without noise.
        func psnr(_ samples: [UInt16]) -> Double {
            var sum = 0.0, count = 0
            for y in 0..<Self.height {
                for x in 0..<Self.width where places.contains(where: { (($0.0)..<($0.0 + 40)).contains(x) && (($0.1)..<($0.1 + 40)).contains(y) }) {
                    let d = Double(samples[y * Self.width + x]) - Self.scene(x, y, square: places[0])
                    sum += d * d
                    count += 1
                }
            }
            return 20 * 0.30103 * FastMath.log2(Double(Self.white) / (sum / Double(count)).squareRoot())  // (log10 = 0.30103 log2)
        }
        let alone = psnr(frames[0]), robust = psnr(merged(BurstMerge.robustness)), average = psnr(merged(BurstMerge.plainAverage))
        #expect(robust >= alone - 0.5, "merged \(robust) dB, the reference alone \(alone) dB")
        #expect(average < alone - 3, "a plain average \(average) dB shows the subject's ghosts")
    }
}
