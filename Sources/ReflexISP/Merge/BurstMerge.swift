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
    /// noise removed, more risk of ghosts).
    public static let robustness = 4.0

    /// The burst's frames, all `width`×`height` Bayer samples with `blackLevel`, their first the
    /// reference; `alignments[i]` places frame i + 1 (`TileAlignment.align`). `noise`: the
    /// frames' noise (signal 0…1 above black, of `whiteLevel` − `blackLevel`). Returns the
    /// merged frame's samples (rounded; the reference's own where it is alone).
    public static func merge(_ frames: [[UInt16]], alignments: [TileAlignment], width: Int, height: Int,
                             blackLevel: Int, whiteLevel: Int, noise: NoiseProfile, tileSize: Int = 32) -> [UInt16] {
        precondition(frames.count == alignments.count + 1 && !frames.isEmpty, "an alignment for each alternate")
        let reference = frames[0]
        guard frames.count > 1 else { return reference }
        let half = tileSize / 2
        let window = (0..<tileSize).map { i in Float(0.5 - 0.5 * FastMath.cos(2 * Double.pi * (Double(i) + 0.5) / Double(tileSize))) }
        var sum = [Float](repeating: 0, count: width * height)
        var weightSum = [Float](repeating: 0, count: width * height)
        let range = Double(whiteLevel - blackLevel)
        // Tiles every half tile, from half a tile before the frame so its edges get whole windows.
        for top in stride(from: -half, to: height, by: half) {
            for left in stride(from: -half, to: width, by: half) {
                let x0 = max(left, 0), x1 = min(left + tileSize, width)
                let y0 = max(top, 0), y1 = min(top + tileSize, height)
                guard x1 > x0, y1 > y0 else { continue }
                // The tile's mean signal, for the noise expected at its level.
                var mean = 0.0
                for y in y0..<y1 { for x in x0..<x1 { mean += Double(reference[y * width + x]) } }
                mean /= Double((x1 - x0) * (y1 - y0))
                let signal = min(max((mean - Double(blackLevel)) / range, 0), 1)
                let variance = (noise.scale * signal + noise.offset) * range * range
                // Each alternate's weight for this tile.
                var weights = [Float](repeating: 0, count: frames.count)
                var shifts = [SIMD2<Int32>](repeating: .zero, count: frames.count)
                weights[0] = 1
                for index in 1..<frames.count {
                    let shift = alignments[index - 1].offset(atX: (x0 + x1) / 2, y: (y0 + y1) / 2)
                    shifts[index] = shift
                    var difference = 0.0, counted = 0
                    let frame = frames[index]
                    for y in y0..<y1 {
                        let sy = y + Int(shift.y)
                        guard sy >= 0 && sy < height else { continue }
                        for x in x0..<x1 {
                            let sx = x + Int(shift.x)
                            guard sx >= 0 && sx < width else { continue }
                            let d = Double(frame[sy * width + sx]) - Double(reference[y * width + x])
                            difference += d * d
                            counted += 1
                        }
                    }
                    // Two noisy frames differ by twice the variance when nothing moved.
                    guard counted * 2 >= (x1 - x0) * (y1 - y0) else { continue }
                    let excess = max(difference / Double(counted) - 2 * variance, 0)
                    weights[index] = Float(robustness * variance / (robustness * variance + excess))
                }
                for y in y0..<y1 {
                    let wy = window[y - top]
                    for x in x0..<x1 {
                        let w = wy * window[x - left]
                        var value = Float(reference[y * width + x]), total: Float = 1
                        for index in 1..<frames.count where weights[index] > 0 {
                            let sx = x + Int(shifts[index].x), sy = y + Int(shifts[index].y)
                            guard sx >= 0 && sx < width && sy >= 0 && sy < height else { continue }
                            value += weights[index] * Float(frames[index][sy * width + sx])
                            total += weights[index]
                        }
                        sum[y * width + x] += w * value / total
                        weightSum[y * width + x] += w
                    }
                }
            }
        }
        let top = Float(UInt16.max)
        return (0..<(width * height)).map { i in
            let value = weightSum[i] > 0 ? sum[i] / weightSum[i] : Float(reference[i])
            return UInt16(min(max(value.rounded(), 0), top))
        }
    }
}
