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
        let black = Int32(parameters.blackLevel)
        let clipLevel = UInt16(min(parameters.whiteLevel, format.maximumValue) * 98 / 100)
        var sumRed: Int64 = 0, sumGreen: Int64 = 0, sumBlue: Int64 = 0
        var samples = 0
        var clipped = 0
        for bin in 0..<FrameStatistics.histogramBins { statistics.histogram[bin] = 0 }
        let red = format.cfa.redPosition
        let tilesWide = layout.width / 2
        let histogramShift = 8 - 6  // 8-bit display values into 64 bins
        let packing = format.packing
        statistics.histogram.withUnsafeMutableBufferPointer { histogram in
            var tileRow = 0
            while tileRow < layout.height / 2 {
                // Only the sampled tiles' samples are read, where they lie.
                let upper = frame + tileRow * 2 * layout.bytesPerLine, lower = upper + layout.bytesPerLine
                let redRow = red.y == 0 ? upper : lower, blueRow = red.y == 0 ? lower : upper
                var tile = 0
                while tile < tilesWide {
                    let x = tile * 2
                    let r = RawUnpacking.sample(redRow, packing: packing, at: x + red.x)
                    let g1 = RawUnpacking.sample(redRow, packing: packing, at: x + 1 - red.x)
                    let g2 = RawUnpacking.sample(blueRow, packing: packing, at: x + red.x)
                    let b = RawUnpacking.sample(blueRow, packing: packing, at: x + 1 - red.x)
                    sumRed &+= Int64(max(Int32(r) - black, 0))
                    sumGreen &+= Int64(max((Int32(g1) + Int32(g2)) / 2 - black, 0))
                    sumBlue &+= Int64(max(Int32(b) - black, 0))
                    if r >= clipLevel || g1 >= clipLevel || g2 >= clipLevel || b >= clipLevel { clipped += 1 }
                    let luma = displayedLuma(red: r, green: g1, blue: b)
                    histogram[Int(luma) >> histogramShift] += 1
                    samples += 1
                    tile += gridStep
                }
                tileRow += gridStep
            }
        }
        statistics.sumRed = sumRed
        statistics.sumGreen = sumGreen
        statistics.sumBlue = sumBlue
        statistics.samples = samples
        statistics.clipped = clipped
        statistics.signalRange = parameters.whiteLevel - parameters.blackLevel
    }
}
