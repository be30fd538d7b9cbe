/// What Auto exposure, Auto white balance and the on-screen histogram need from a frame,
/// gathered on a subsampled grid of 2×2 tiles.
public struct FrameStatistics: Sendable, Equatable {
    public static let histogramBins = 64

    /// Sums of black-subtracted sensor values over the sampled tiles (green: the tile's mean).
    public var sumRed: Int64 = 0
    public var sumGreen: Int64 = 0
    public var sumBlue: Int64 = 0
    /// Tiles sampled, and of them those with a saturated channel.
    public var samples = 0
    public var clipped = 0
    /// white − black of the frame's sensor values: the scale of the sums.
    public var signalRange = 1
    /// Displayed luma (after white balance, gain and gamma), `histogramBins` bins.
    public var histogram = [UInt32](repeating: 0, count: FrameStatistics.histogramBins)

    public init() {}

    /// Mean linear sensor values, 0 (black) … 1 (saturation), before white balance.
    public var meanRGB: SIMD3<Double> {
        guard samples > 0 else { return SIMD3(0, 0, 0) }
        let scale = 1 / (Double(samples) * Double(signalRange))
        return SIMD3(Double(sumRed), Double(sumGreen), Double(sumBlue)) * scale
    }

    /// The share of sampled tiles with a saturated channel.
    public var clippedFraction: Double { samples > 0 ? Double(clipped) / Double(samples) : 0 }
}

extension PreviewISP {
    /// Fills `statistics` from one Bayer frame, sampling every `gridStep`-th tile in both
    /// directions. Uses the parameters last set (black/white level for the sums; white
    /// balance, gain and gamma for the histogram). Allocates nothing.
    public func collectStatistics(_ frame: UnsafeRawPointer, layout: RawLayout, gridStep: Int = 4,
                                  into statistics: inout FrameStatistics) {
        guard let parameters = currentParameters, let format = currentFormat, format == layout.format else {
            preconditionFailure("setParameters(_:format:) for this format first")
        }
        let grid = SampleGrid(frame: frame, layout: layout, step: gridStep, black: Int32(parameters.blackLevel),
                              clipLevel: UInt16(min(parameters.whiteLevel, format.maximumValue) * 98 / 100))
        for bin in 0..<FrameStatistics.histogramBins { statistics.histogram[bin] = 0 }
        // One loop per packing, so that the reads are specialised rather than switched per sample.
        let sums = statistics.histogram.withUnsafeMutableBufferPointer { histogram in
            switch format.packing {
            case .bits8: sample(grid, into: histogram) { RawUnpacking.sample($0, packing: .bits8, at: $1) }
            case .unpacked16: sample(grid, into: histogram) { RawUnpacking.sample($0, packing: .unpacked16, at: $1) }
            case .csi2Packed10: sample(grid, into: histogram) { RawUnpacking.sample($0, packing: .csi2Packed10, at: $1) }
            case .csi2Packed12: sample(grid, into: histogram) { RawUnpacking.sample($0, packing: .csi2Packed12, at: $1) }
            }
        }
        statistics.sumRed = sums.red
        statistics.sumGreen = sums.green
        statistics.sumBlue = sums.blue
        statistics.samples = sums.tiles
        statistics.clipped = sums.clipped
        statistics.signalRange = parameters.whiteLevel - parameters.blackLevel
    }

    /// The tiles the statistics read, and what they need to know of the frame's levels.
    private struct SampleGrid {
        let frame: UnsafeRawPointer
        let layout: RawLayout
        let step: Int
        let black: Int32
        let clipLevel: UInt16
    }

    private struct GridSums {
        var red: Int64 = 0, green: Int64 = 0, blue: Int64 = 0
        var tiles = 0, clipped = 0
    }

    /// The sums of the grid's tiles, and their displayed luma counted into `histogram`; `read`
    /// gives a row's sample at an index (only the sampled tiles' samples are read, where they lie).
    @inline(__always)
    private func sample(_ grid: SampleGrid, into histogram: UnsafeMutableBufferPointer<UInt32>,
                        read: (UnsafeRawPointer, Int) -> UInt16) -> GridSums {
        let red = grid.layout.format.cfa.redPosition
        let histogramShift = 8 - 6  // 8-bit display values into 64 bins
        let rowEnd = grid.layout.width / 2 * 2
        var sums = GridSums()
        var tileRow = 0
        while tileRow < grid.layout.height / 2 {
            let upper = grid.frame + tileRow * 2 * grid.layout.bytesPerLine, lower = upper + grid.layout.bytesPerLine
            let redRow = red.y == 0 ? upper : lower, blueRow = red.y == 0 ? lower : upper
            var x = 0
            while x < rowEnd {
                let r = read(redRow, x &+ red.x)
                let g1 = read(redRow, x &+ 1 &- red.x)
                let g2 = read(blueRow, x &+ red.x)
                let b = read(blueRow, x &+ 1 &- red.x)
                sums.red &+= Int64(max(Int32(r) &- grid.black, 0))
                sums.green &+= Int64(max((Int32(g1) &+ Int32(g2)) / 2 &- grid.black, 0))
                sums.blue &+= Int64(max(Int32(b) &- grid.black, 0))
                if max(max(r, g1), max(g2, b)) >= grid.clipLevel { sums.clipped &+= 1 }
                histogram[Int(displayedLuma(red: r, green: g1, blue: b)) &>> histogramShift] &+= 1
                sums.tiles &+= 1
                x &+= 2 &* grid.step
            }
            tileRow &+= grid.step
        }
        return sums
    }
}
