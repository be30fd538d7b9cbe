#if canImport(Glibc)
import Glibc
#endif

/// A grey step wedge for the simulated sensor (the chart a camera's dynamic range is measured
/// on): `steps` flat grey patches in a grid of `columns`, the first `topRadiance` (far above
/// what clips at a normal exposure), each next `stepStops` darker. `readings` measures each
/// patch of a raw frame of it, so a frame's usable range, from the brightest patch below
/// clipping to the darkest whose signal still stands above its noise, is counted in stops.
public struct StepWedge: Sendable, Equatable {
    public var steps = 48
    public var columns = 8
    public var stepStops = 1.0 / 3
    /// The first patch's radiance (the scene's mid grey is about 1).
    public var topRadiance = 32.0

    public init() {}

    public var rows: Int { (steps + columns - 1) / columns }

    /// Patch `index`'s radiance.
    public func radiance(ofStep index: Int) -> Double { topRadiance * exp2(-Double(index) * stepStops) }

    /// The radiance at scene point (`x`, `y`) of a `width` × `height` frame (black outside the
    /// patches).
    public func radiance(x: Double, y: Double, width: Int, height: Int) -> Double {
        let column = Int((x / Double(width) * Double(columns)).rounded(.down))
        let row = Int((y / Double(height) * Double(rows)).rounded(.down))
        guard (0..<columns).contains(column), (0..<rows).contains(row), row * columns + column < steps else { return 0 }
        return radiance(ofStep: row * columns + column)
    }

    /// What one patch of a frame shows: its mean above black and its noise (the standard
    /// deviation of its samples, a flat patch's being all noise), both in the frame's units.
    public struct Reading: Sendable, Equatable {
        public var signal: Double
        public var noise: Double
        /// More than 1 % of its samples at the white level.
        public var clipped: Bool

        /// Below clipping, with its signal at least its noise (SNR ≥ 1).
        public var usable: Bool { !clipped && signal >= noise && signal > 0 }
    }

    /// Each patch of `samples` (a `width` × `height` raw frame of the wedge, every colour alike
    /// since the wedge is grey), read inside a margin of a sixth of the patch so a shaken frame's
    /// edges stay out.
    public func readings(_ samples: [UInt16], width: Int, height: Int, blackLevel: Int, whiteLevel: Int) -> [Reading] {
        let patchWidth = width / columns, patchHeight = height / rows
        return (0..<steps).map { index in
            let x0 = (index % columns) * patchWidth, y0 = (index / columns) * patchHeight
            var sum = 0.0, squares = 0.0, count = 0, atWhite = 0
            for y in (y0 + patchHeight / 6)..<(y0 + patchHeight - patchHeight / 6) {
                for x in (x0 + patchWidth / 6)..<(x0 + patchWidth - patchWidth / 6) {
                    let value = Int(samples[y * width + x])
                    let above = Double(value - blackLevel)
                    sum += above
                    squares += above * above
                    count += 1
                    if value >= whiteLevel { atWhite += 1 }
                }
            }
            let mean = sum / Double(count)
            return Reading(signal: mean, noise: max(squares / Double(count) - mean * mean, 0).squareRoot(),
                           clipped: atWhite * 100 > count)
        }
    }

    /// The frame's usable range: its usable patches, each `stepStops` of it.
    public func usableStops(_ readings: [Reading]) -> Double {
        Double(readings.filter(\.usable).count) * stepStops
    }
}
