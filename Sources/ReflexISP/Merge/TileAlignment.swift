/// Where each tile of a burst's reference frame is found in another frame of the burst: a grid
/// of tiles `tileSize` Bayer pixels square, and for each the offset (in Bayer pixels, even, so
/// the colour pattern lines up) at which the other frame matches it best. Found coarse to fine
/// on the frames' `GreyPyramid`s (HDR+'s alignment): at each level every tile searches
/// ±`search` pixels around the offset its coarser tile found, by the least sum of absolute
/// differences, so a shift many times the search is followed and each tile may move its own way
/// (a hand's rotation, a subject's motion).
public struct TileAlignment: Sendable, Equatable {
    /// A tile's side in Bayer pixels (its grey tile's side twice over).
    public let tileSize: Int
    public let tilesAcross: Int
    public let tilesDown: Int
    /// Per tile, a line after another: where the tile at (x, y) of the reference is in the
    /// other frame, (x + dx, y + dy).
    public var offsets: [SIMD2<Int32>]

    /// The offset of the tile holding Bayer pixel (`x`, `y`).
    public func offset(atX x: Int, y: Int) -> SIMD2<Int32> {
        let column = min(max(x / tileSize, 0), tilesAcross - 1), row = min(max(y / tileSize, 0), tilesDown - 1)
        return offsets[row * tilesAcross + column]
    }

    /// `alternate` aligned to `reference`; `greyTile` the tiles' side at the finest level (in
    /// grey pixels: the Bayer tile is twice that), `search` the pixels searched either way at
    /// each level.
    public static func align(_ alternate: GreyPyramid, to reference: GreyPyramid, greyTile: Int = 16,
                             search: Int = 4) -> TileAlignment {
        precondition(alternate.levels.count == reference.levels.count, "frames of one size")
        // Coarse levels use smaller tiles (there is less in them); each level's offsets seed
        // the next finer one's, doubled.
        var previous: (offsets: [SIMD2<Int32>], across: Int, down: Int, tile: Int)?
        for index in stride(from: reference.levels.count - 1, through: 0, by: -1) {
            let ref = reference.levels[index], alt = alternate.levels[index]
            let tile = index == 0 ? greyTile : max(greyTile / 2, 8)
            let across = max(ref.width / tile, 1), down = max(ref.height / tile, 1)
            var offsets = [SIMD2<Int32>](repeating: .zero, count: across * down)
            for row in 0..<down {
                for column in 0..<across {
                    let x0 = column * tile, y0 = row * tile
                    var guess = SIMD2<Int32>.zero
                    if let previous {
                        // The coarser tile under this one's centre, its offset at this scale.
                        let cx = (x0 + tile / 2) / 2 / previous.tile, cy = (y0 + tile / 2) / 2 / previous.tile
                        let coarse = previous.offsets[min(cy, previous.down - 1) * previous.across + min(cx, previous.across - 1)]
                        guess = coarse &* 2
                    }
                    offsets[row * across + column] = best(ref, alt, x0: x0, y0: y0, tile: tile, around: guess, search: search)
                }
            }
            previous = (offsets, across, down, tile)
        }
        let finest = previous!
        return TileAlignment(tileSize: 2 * finest.tile, tilesAcross: finest.across, tilesDown: finest.down,
                             offsets: finest.offsets.map { $0 &* 2 })
    }

    /// A searched offset replaces the coarser level's guess (or no motion) only when it matches
    /// better by this share: in a flat tile the noise alone makes some offset win by a few per
    /// cent, and such a win, doubled level after level, would throw the tile far off.
    public static let moveMargin: Float = 0.05

    /// The offset within ±`search` of `guess` where `alt` best matches `ref`'s tile.
    private static func best(_ ref: GreyPyramid.Level, _ alt: GreyPyramid.Level, x0: Int, y0: Int, tile: Int,
                             around guess: SIMD2<Int32>, search: Int) -> SIMD2<Int32> {
        ref.pixels.withUnsafeBufferPointer { refPixels in
            alt.pixels.withUnsafeBufferPointer { altPixels in
                let reference = refPixels.baseAddress!, other = altPixels.baseAddress!
                let xEnd = min(x0 + tile, ref.width), yEnd = min(y0 + tile, ref.height)
                // The sum of absolute differences at (ox, oy), given up once past `limit`.
                func cost(_ ox: Int, _ oy: Int, under limit: Float) -> Float {
                    var cost: Float = 0
                    let inside = x0 + ox >= 0 && xEnd + ox <= alt.width && y0 + oy >= 0 && yEnd + oy <= alt.height
                    for y in y0..<yEnd {
                        let row = reference + y * ref.width
                        if inside {
                            let moved = other + (y + oy) * alt.width + ox
                            for x in x0..<xEnd { cost += abs(row[x] - moved[x]) }
                        } else {
                            // (At the frame's edge: the edge's pixels repeated.)
                            let line = other + min(max(y + oy, 0), alt.height - 1) * alt.width
                            for x in x0..<xEnd { cost += abs(row[x] - line[min(max(x + ox, 0), alt.width - 1)]) }
                        }
                        if cost >= limit { break }
                    }
                    return cost
                }
                // The prior: the guess, or no motion if that matches as well.
                let guessCost = cost(Int(guess.x), Int(guess.y), under: .infinity)
                let stillCost = guess == .zero ? guessCost : cost(0, 0, under: .infinity)
                let (prior, priorCost) = stillCost <= guessCost ? (SIMD2<Int32>.zero, stillCost) : (guess, guessCost)
                var bestOffset = prior, bestCost = Float.infinity
                for dy in -search...search {
                    for dx in -search...search {
                        let ox = Int(guess.x) + dx, oy = Int(guess.y) + dy
                        let found = cost(ox, oy, under: bestCost)
                        if found < bestCost { (bestCost, bestOffset) = (found, SIMD2(Int32(ox), Int32(oy))) }
                    }
                }
                return bestCost < priorCost * (1 - moveMargin) ? bestOffset : prior
            }
        }
    }
}
