import ReflexCore

/// What Auto exposure, Auto white balance and the on-screen histogram need from a frame,
/// gathered on a subsampled grid of 2×2 tiles.
public struct FrameStatistics: Sendable, Equatable {
    public static let histogramBins = 64

    /// Sums of black-subtracted sensor values over the sampled tiles (green: the tile's mean).
    public var sumRed: Int64 = 0
    public var sumGreen: Int64 = 0
    public var sumBlue: Int64 = 0
    /// Tiles sampled, and of them those with a saturated channel, and those with a channel
    /// within a stop of saturating (what a stop more exposure would clip).
    public var samples = 0
    public var clipped = 0
    public var nearClipping = 0
    /// white − black of the frame's sensor values: the scale of the sums.
    public var signalRange = 1
    /// Displayed luma (after white balance, gain and gamma), `histogramBins` bins.
    public var histogram = [UInt32](repeating: 0, count: FrameStatistics.histogramBins)
    /// The same sums over the metering spot alone (a tap on the picture), sampled twice as
    /// densely; no samples when the whole frame is metered.
    public var spotRed: Int64 = 0
    public var spotGreen: Int64 = 0
    public var spotBlue: Int64 = 0
    public var spotSamples = 0
    public var spotClipped = 0

    public init() {}

    /// The spot's mean linear sensor values (as `meanRGB`); nil when no spot was metered.
    public var spotMeanRGB: SIMD3<Double>? {
        guard spotSamples > 0 else { return nil }
        let scale = 1 / (Double(spotSamples) * Double(signalRange))
        return SIMD3(Double(spotRed), Double(spotGreen), Double(spotBlue)) * scale
    }

    /// The share of the spot's tiles with a saturated channel.
    public var spotClippedFraction: Double { spotSamples > 0 ? Double(spotClipped) / Double(spotSamples) : 0 }

    /// Mean linear sensor values, 0 (black) … 1 (saturation), before white balance.
    public var meanRGB: SIMD3<Double> {
        guard samples > 0 else { return SIMD3(0, 0, 0) }
        let scale = 1 / (Double(samples) * Double(signalRange))
        return SIMD3(Double(sumRed), Double(sumGreen), Double(sumBlue)) * scale
    }

    /// The share of sampled tiles with a saturated channel.
    public var clippedFraction: Double { samples > 0 ? Double(clipped) / Double(samples) : 0 }
    public var nearClippingFraction: Double { samples > 0 ? Double(nearClipping) / Double(samples) : 0 }
}

extension PreviewISP {
    /// Fills `statistics` from one Bayer frame, sampling every `gridStep`-th tile in both
    /// directions. Uses the parameters last set (black/white level for the sums; white
    /// balance, gain and gamma for the histogram). Allocates nothing.
    /// `spot` (sensor pixels; nil: none) is metered on its own as well, every `gridStep / 2`-th
    /// tile (the histogram counts only the whole frame's).
    public func collectStatistics(_ frame: UnsafeRawPointer, layout: RawLayout, gridStep: Int = 4, spot: PixelRect? = nil,
                                  into statistics: inout FrameStatistics) {
        guard let parameters = currentParameters, let format = currentFormat, format == layout.format else {
            preconditionFailure("setParameters(_:format:) for this format first")
        }
        let clipLevel = UInt16(min(parameters.whiteLevel, format.maximumValue) * 98 / 100)
        let whole = PixelRect(x: 0, y: 0, width: layout.width, height: layout.height)
        // (A stop below the clip level, above black.)
        let nearLevel = UInt16((Int(clipLevel) + max(parameters.blackLevel, 0)) / 2)
        let grid = SampleGrid(frame: frame, layout: layout, area: whole, step: gridStep, black: Int32(parameters.blackLevel),
                              clipLevel: clipLevel, nearLevel: nearLevel)
        for bin in 0..<FrameStatistics.histogramBins { statistics.histogram[bin] = 0 }
        let sums = statistics.histogram.withUnsafeMutableBufferPointer { sample(grid, format: format, into: $0) }
        statistics.sumRed = sums.red
        statistics.sumGreen = sums.green
        statistics.sumBlue = sums.blue
        statistics.samples = sums.tiles
        statistics.clipped = sums.clipped
        statistics.nearClipping = sums.nearClipping
        statistics.signalRange = parameters.whiteLevel - parameters.blackLevel
        var spotSums = GridSums()
        if let spot {
            let area = PreviewISP.alignedCrop(spot, width: layout.width, height: layout.height, step: 2)
            let spotGrid = SampleGrid(frame: frame, layout: layout, area: area, step: max(gridStep / 2, 1),
                                      black: Int32(parameters.blackLevel), clipLevel: clipLevel, nearLevel: nearLevel)
            spotSums = sample(spotGrid, format: format, into: nil)
        }
        statistics.spotRed = spotSums.red
        statistics.spotGreen = spotSums.green
        statistics.spotBlue = spotSums.blue
        statistics.spotSamples = spotSums.tiles
        statistics.spotClipped = spotSums.clipped
    }

    /// One loop per packing, so that the reads are specialised rather than switched per sample.
    private func sample(_ grid: SampleGrid, format: RawFormat, into histogram: UnsafeMutableBufferPointer<UInt32>?) -> GridSums {
        switch format.packing {
        case .bits8: sample(grid, into: histogram) { RawUnpacking.sample($0, packing: .bits8, at: $1) }
        case .unpacked16: sample(grid, into: histogram) { RawUnpacking.sample($0, packing: .unpacked16, at: $1) }
        case .csi2Packed10: sample(grid, into: histogram) { RawUnpacking.sample($0, packing: .csi2Packed10, at: $1) }
        case .csi2Packed12: sample(grid, into: histogram) { RawUnpacking.sample($0, packing: .csi2Packed12, at: $1) }
        }
    }

    /// The tiles the statistics read, and what they need to know of the frame's levels.
    private struct SampleGrid {
        let frame: UnsafeRawPointer
        let layout: RawLayout
        /// The pixels sampled: the whole frame, or the metering spot (on whole tiles).
        let area: PixelRect
        let step: Int
        let black: Int32
        let clipLevel: UInt16
        let nearLevel: UInt16
    }

    private struct GridSums {
        var red: Int64 = 0, green: Int64 = 0, blue: Int64 = 0
        var tiles = 0, clipped = 0, nearClipping = 0
    }

    /// The sums of the grid's tiles, and their displayed luma counted into `histogram`; `read`
    /// gives a row's sample at an index (only the sampled tiles' samples are read, where they lie).
    @inline(__always)
    private func sample(_ grid: SampleGrid, into histogram: UnsafeMutableBufferPointer<UInt32>?,
                        read: (UnsafeRawPointer, Int) -> UInt16) -> GridSums {
        let red = grid.layout.format.cfa.redPosition
        let histogramShift = 8 - 6  // 8-bit display values into 64 bins
        let rowEnd = grid.area.x + grid.area.width / 2 * 2
        var sums = GridSums()
        var tileRow = grid.area.y / 2
        while tileRow < (grid.area.y + grid.area.height) / 2 {
            let upper = grid.frame + tileRow * 2 * grid.layout.bytesPerLine, lower = upper + grid.layout.bytesPerLine
            let redRow = red.y == 0 ? upper : lower, blueRow = red.y == 0 ? lower : upper
            var x = grid.area.x
            while x < rowEnd {
                let r = read(redRow, x &+ red.x)
                let g1 = read(redRow, x &+ 1 &- red.x)
                let g2 = read(blueRow, x &+ red.x)
                let b = read(blueRow, x &+ 1 &- red.x)
                sums.red &+= Int64(max(Int32(r) &- grid.black, 0))
                sums.green &+= Int64(max((Int32(g1) &+ Int32(g2)) / 2 &- grid.black, 0))
                sums.blue &+= Int64(max(Int32(b) &- grid.black, 0))
                let brightest = max(max(r, g1), max(g2, b))
                if brightest >= grid.clipLevel { sums.clipped &+= 1 }
                if brightest >= grid.nearLevel { sums.nearClipping &+= 1 }
                if let histogram { histogram[Int(displayedLuma(red: r, green: g1, blue: b)) &>> histogramShift] &+= 1 }
                sums.tiles &+= 1
                x &+= 2 &* grid.step
            }
            tileRow &+= grid.step
        }
        return sums
    }
}
