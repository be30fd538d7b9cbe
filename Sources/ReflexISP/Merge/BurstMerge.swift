import ReflexCore

/// A burst merged into one raw frame with less noise (HDR+'s merge, done in the image's own
/// space as Monod, Delon and Veit's analysis allows): the frame is cut into tiles of
/// `tileSize` Bayer pixels overlapping by half, each alternate frame's tile is taken from
/// where the alignment found it, and averaged into the reference's with a weight that falls as
/// it differs from the reference by more than the noise explains (a subject that moved is
/// kept from the reference alone, so nothing is ghosted). The tiles are blended with a raised
/// cosine, whose halves sum to one, so no seam shows. Still a Bayer mosaic, in the reference's
/// black and white levels: the merge is a raw.
public enum BurstMerge {
    /// How much difference beyond the noise a tile may show and still count (higher: more
    /// noise removed, more risk of ghosts; `plainAverage` takes every tile whole, the
    /// reference a merge is measured against).
    public static let robustness = 4.0
    public static let plainAverage = 1e12
    /// A sample further from the reference's than this many standard deviations of two
    /// frames' difference is not noise (pure noise strays that far once in 16 000 samples).
    public static let outlierSigmas = 4.0

    /// The burst's frames, all `width`×`height` Bayer samples with `blackLevel`, their first the
    /// reference; `alignments[i]` places frame i + 1 (`TileAlignment.align`). `noise`: the
    /// frames' noise (signal 0…1 above black, of `whiteLevel` − `blackLevel`). Returns the
    /// merged frame's samples times `outputScale` (rounded: a scale keeps the precision the
    /// average gained), the reference's own where it is alone.
    public static func merge(_ frames: [[UInt16]], alignments: [TileAlignment], width: Int, height: Int,
                             blackLevel: Int, whiteLevel: Int, noise: NoiseProfile, tileSize: Int = 32,
                             outputScale: Float = 1, robustness: Double = BurstMerge.robustness,
                             parallel: ParallelWork = .sequential) -> [UInt16] {
        precondition(frames.allSatisfy { $0.count >= width * height }, "whole frames")
        return withPointers(to: frames) { pixels in
            merge(pixels, alignments: alignments, width: width, height: height, blackLevel: blackLevel,
                  whiteLevel: whiteLevel, noise: noise, tileSize: tileSize, outputScale: outputScale, robustness: robustness,
                  parallel: parallel)
        }
    }

    /// `body` with a pointer to each frame's samples (valid inside it only).
    static func withPointers<Result>(to frames: [[UInt16]], from index: Int = 0,
                                             collected: [UnsafePointer<UInt16>] = [],
                                             _ body: ([UnsafePointer<UInt16>]) -> Result) -> Result {
        guard index < frames.count else { return body(collected) }
        return frames[index].withUnsafeBufferPointer { samples in
            withPointers(to: frames, from: index + 1, collected: collected + [samples.baseAddress!], body)
        }
    }

    /// What every row of tiles reads, and the sums it adds to.
    private struct Job {
        let frames: [UnsafePointer<UInt16>]
        let alignments: [TileAlignment]
        let width: Int
        let height: Int
        let blackLevel: Int
        let range: Double
        let noise: NoiseProfile
        let robustness: Double
        let tileSize: Int
        let window: [Float]
        let sum: UnsafeMutablePointer<Float>
    }

    /// The same, for frames in memory of their own (read during the call only): a ring's
    /// frames merged where they are, without a copy.
    public static func merge(_ frames: [UnsafePointer<UInt16>], alignments: [TileAlignment], width: Int, height: Int,
                             blackLevel: Int, whiteLevel: Int, noise: NoiseProfile, tileSize: Int = 32,
                             outputScale: Float = 1, robustness: Double = BurstMerge.robustness,
                             parallel: ParallelWork = .sequential) -> [UInt16] {
        precondition(frames.count == alignments.count + 1 && !frames.isEmpty, "an alignment for each alternate")
        let half = tileSize / 2
        let window = (0..<tileSize).map { i in Float(0.5 - 0.5 * FastMath.cos(2 * Double.pi * (Double(i) + 0.5) / Double(tileSize))) }
        // Each pixel lies in four tiles whose windows' weights sum to one (a raised cosine's
        // halves do), so the weighted sum is the merged value itself: no sum of weights is kept.
        var sum = [Float](repeating: 0, count: width * height)
        // Tiles every half tile, from half a tile before the frame so its edges get whole
        // windows. Each other row of tiles covers rows no other of them does: the even rows
        // are merged side by side, then the odd ones.
        let tops = Array(stride(from: -half, to: height, by: half))
        sum.withUnsafeMutableBufferPointer { sum in
            let job = Job(frames: frames, alignments: alignments, width: width, height: height, blackLevel: blackLevel,
                          range: Double(whiteLevel - blackLevel), noise: noise, robustness: robustness,
                          tileSize: tileSize, window: window, sum: sum.baseAddress!)
            for parity in 0..<2 {
                let rows = stride(from: parity, to: tops.count, by: 2).map { tops[$0] }
                parallel.forEach(parallel.threads) { part in
                    for index in stride(from: part, to: rows.count, by: parallel.threads) {
                        mergeRow(top: rows[index], job)
                    }
                }
            }
        }
        let top = Float(UInt16.max)
        return sum.map { UInt16(min(max(($0 * outputScale).rounded(), 0), top)) }
    }

    /// The row of tiles starting at `top`, into the job's sums.
    private static func mergeRow(top: Int, _ job: Job) {
        let (frames, width, height, tileSize) = (job.frames, job.width, job.height, job.tileSize)
        let reference = frames[0], half = tileSize / 2
        // Each alternate's weight and shift for the tile at hand (made once a row, filled per tile).
        var weights = [Float](repeating: 0, count: frames.count)
        var shifts = [(x: Int, y: Int)](repeating: (0, 0), count: frames.count)
        for left in stride(from: -half, to: width, by: half) {
            let x0 = max(left, 0), x1 = min(left + tileSize, width)
            let y0 = max(top, 0), y1 = min(top + tileSize, height)
            guard x1 > x0, y1 > y0 else { continue }
            // The tile's mean signal, for the noise expected at its level.
            var total = 0
            for y in y0..<y1 { for x in x0..<x1 { total += Int(reference[y * width + x]) } }
            let mean = Double(total) / Double((x1 - x0) * (y1 - y0))
            let signal = min(max((mean - Double(job.blackLevel)) / job.range, 0), 1)
            let variance = (job.noise.scale * signal + job.noise.offset) * job.range * job.range
            for index in 1..<frames.count {
                let shift = job.alignments[index - 1].offset(atX: (x0 + x1) / 2, y: (y0 + y1) / 2)
                shifts[index] = (Int(shift.x), Int(shift.y))
                weights[index] = weight(of: frames[index], shift: shifts[index], against: reference, width: width,
                                        height: height, x0: x0, x1: x1, y0: y0, y1: y1, variance: variance,
                                        robustness: job.robustness)
            }
            // A sample that differs from the reference's far beyond two frames' noise is left
            // out even in a tile that matches as a whole (an edge the even shift missed by a
            // pixel, a small thing that moved): the tile's weight alone would blend some in.
            let outlier = job.robustness < BurstMerge.plainAverage
                ? Float(BurstMerge.outlierSigmas * BurstMerge.outlierSigmas * 2 * variance) : .infinity
            for y in y0..<y1 {
                let wy = job.window[y - top]
                for x in x0..<x1 {
                    let i = y * width + x
                    let own = Float(reference[i])
                    var value = own, count: Float = 1
                    for index in 1..<frames.count where weights[index] > 0 {
                        let sx = x + shifts[index].x, sy = y + shifts[index].y
                        guard sx >= 0 && sx < width && sy >= 0 && sy < height else { continue }
                        let moved = Float(frames[index][sy * width + sx])
                        guard (moved - own) * (moved - own) <= outlier else { continue }
                        value += weights[index] * moved
                        count += weights[index]
                    }
                    let w = wy * job.window[x - left]
                    job.sum[i] += w * value / count
                }
            }
        }
    }

    /// How much of `frame`'s tile (`x0`..<`x1`, `y0`..<`y1` of the reference, found `shift`
    /// away) goes into the merge: 1 when it differs from the reference by what two frames'
    /// noise of `variance` explains, falling as it differs more; 0 when half of it is outside.
    private static func weight(of frame: UnsafePointer<UInt16>, shift: (x: Int, y: Int), against reference: UnsafePointer<UInt16>,
                               width: Int, height: Int, x0: Int, x1: Int, y0: Int, y1: Int, variance: Double,
                               robustness: Double) -> Float {
        // The part of the tile whose match lies inside the frame.
        let left = max(x0, -shift.x), right = min(x1, width - shift.x)
        let top = max(y0, -shift.y), bottom = min(y1, height - shift.y)
        guard left < right, top < bottom, (right - left) * (bottom - top) * 2 >= (x1 - x0) * (y1 - y0) else { return 0 }
        let xs = left..<right, ys = top..<bottom
        var difference: Float = 0
        for y in ys {
            let row = reference + y * width, moved = frame + (y + shift.y) * width + shift.x
            for x in xs {
                let d = Float(moved[x]) - Float(row[x])
                difference += d * d
            }
        }
        // Two noisy frames differ by twice the variance when nothing moved.
        let excess = max(Double(difference) / Double(xs.count * ys.count) - 2 * variance, 0)
        return Float(robustness * variance / (robustness * variance + excess))
    }
}
