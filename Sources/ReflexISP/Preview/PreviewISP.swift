import ReflexCore

/// The live preview's image pipeline: raw Bayer (or YUYV) in, XRGB8888 of the display's
/// size out, every frame, with no allocation once built.
///
/// Bayer frames are demosaiced at half resolution — one RGB pixel from each 2×2 tile, the
/// "superpixel" method (dcraw's half-size mode) — which is exact in colour, cheap, and has
/// as many pixels as a 1280-wide viewfinder needs from a 1080p sensor mode. Per tile:
/// unpack → black level, white balance, digital gain, normalisation and the colour matrix →
/// gamma (a table). The half-size image is then scaled bilinearly into the destination
/// rectangle; the letterbox around it is black.
///
/// Everything before gamma is linear, so it is done by three table lookups a tile: each
/// channel's table gives that sample's share of all three displayed channels (its column of
/// the colour matrix, applied to its linear value) packed into one 64-bit word, three 16-bit
/// lanes in fixed point. Adding a tile's three words is the colour matrix; each lane then
/// indexes the gamma table. Every share is biased to stay positive, so lanes never carry into
/// each other, and the gamma table reaches far enough below 0 and above 4095 to be the clamp.
/// No floating point: one loop a row of tiles, over 16-bit samples (read where they lie, or
/// unpacked first: a CSI-2 RAW10 row eight samples a SIMD step).
///
/// Rows of the half-size picture are made only when the scaler asks for them, two at a time
/// (`MadeRows`), so they are blended while still in the cache and a band makes only its own.
public final class PreviewISP {
    public let maximumSourceWidth: Int
    public let maximumSourceHeight: Int
    public let maximumOutputWidth: Int

    /// Linear values inside the pipeline are 12-bit: 0…4095.
    static let linearBits = 12
    static let linearMaximum: Int32 = (1 << linearBits) - 1
    static let lutSize = 1 << 16

    private let rowA: UnsafeMutablePointer<UInt16>
    private let rowB: UnsafeMutablePointer<UInt16>
    /// The two rows of the half-size picture the scaler is blending (see `MadeRows`).
    private let madeRows: UnsafeMutablePointer<UInt32>
    private let madeRowStride: Int
    /// Sensor value → its share of the statistics' luma (Rec. 709 weights of its linear value
    /// after black level, white balance, gain and normalisation), in units of 1/2^`lumaFractionBits`;
    /// laid out as `mix` (red, green by the sum of two, blue).
    private let lumaShares: UnsafeMutablePointer<UInt32>
    static let lumaFractionBits = 4
    /// Sensor value → its share of the displayed red, green and blue (see the type's comment):
    /// 16-bit lanes at bit 0, 16 and 48 (so each is taken out by one or two instructions),
    /// each biased by `gammaBelow` and in units of 1/2^`mixFractionBits`. Green is indexed by
    /// the sum of a tile's two greens.
    /// All three in one allocation, at constant offsets (red, green, blue), so the hot loops
    /// keep one pointer for them in a register rather than three.
    private let mix: UnsafeMutablePointer<UInt64>
    static let mixGreen = lutSize
    static let mixBlue = 3 * lutSize
    /// Linear → the 8-bit sRGB value, for -3 × gammaBelow ..< 4096 + gammaAbove: 0 below 0, 255
    /// above 4095. `gamma` points at linear 0 (the statistics' luma indexes it).
    private let gammaTable: UnsafeMutablePointer<UInt8>
    private let gamma: UnsafeMutablePointer<UInt8>
    /// The gamma curve three times over, one after the other (red, green, blue), as 32-bit
    /// words already in their place in an XRGB pixel (red with the opaque alpha), so a tile is
    /// packed by two ORs; each `gammaCount` long and indexed by a lane of the sum of a tile's
    /// shares: linear -3 × gammaBelow ..< 4096 + gammaAbove in units of 1/2^`mixFractionBits`,
    /// which is every value of a 16-bit lane. (A lane never falls below 2 × gammaBelow + 2:
    /// the part below that is never read, kept so that the index needs no subtraction.)
    private let gammaWords: UnsafeMutablePointer<UInt32>
    static let gammaCount = (3 * gammaBelow + (1 << linearBits) + gammaAbove) << mixFractionBits
    /// Where each of the three starts after the last: a little past `gammaCount`, so that a
    /// tile's three lookups (mostly at the same index) are not a power of two apart, where
    /// they would share cache sets and look, to the processor, like the store before them.
    static let gammaStride = gammaCount + 1040
    /// How far the colour matrix may take a channel below 0 and above 4095 (linear units):
    /// 1.5 and 2.5 times full scale, so rows whose negative coefficients add up to 1.5 (and
    /// so, summing to 1, positive ones to 2.5) pass unshrunk; real sensors' are within.
    /// (With `mixFractionBits`, these fill a 16-bit lane exactly.)
    static let gammaBelow = 3 << (linearBits - 1)
    static let gammaAbove = 5 << (linearBits - 1)
    static let mixFractionBits = 1
    private let scaler: PictureScaler

    private var parameters: ISPParameters?
    private var lutFormat: RawFormat?
    /// Samples index the tables through this mask: the format's depth, so the tables are only
    /// as large as the sensor's values (rebuilt whenever white balance moves) and a corrupt
    /// sample can never read past them.
    private var sampleMask = PreviewISP.lutSize - 1

    public init(maximumSourceWidth: Int, maximumSourceHeight: Int, maximumOutputWidth: Int) {
        self.maximumSourceWidth = maximumSourceWidth
        self.maximumSourceHeight = maximumSourceHeight
        self.maximumOutputWidth = maximumOutputWidth
        rowA = .allocate(capacity: maximumSourceWidth + 8)
        rowB = .allocate(capacity: maximumSourceWidth + 8)
        madeRowStride = maximumSourceWidth / 2 + 1
        madeRows = .allocate(capacity: 2 * madeRowStride)
        lumaShares = .allocate(capacity: 4 * PreviewISP.lutSize)
        mix = .allocate(capacity: 4 * PreviewISP.lutSize)
        let below = 3 * PreviewISP.gammaBelow
        let linearCount = PreviewISP.gammaCount >> PreviewISP.mixFractionBits
        gammaTable = .allocate(capacity: linearCount)
        gamma = gammaTable + below
        for i in 0..<linearCount { gammaTable[i] = PreviewISP.gammaByte(linear: Double(i - below)) }
        scaler = PictureScaler(maximumSourceWidth: madeRowStride, maximumOutputWidth: maximumOutputWidth)
        gammaWords = .allocate(capacity: 3 * PreviewISP.gammaStride)
        let unit = Double(1 << PreviewISP.mixFractionBits)
        for i in 0..<PreviewISP.gammaCount {
            let value = UInt32(PreviewISP.gammaByte(linear: Double(i) / unit - Double(below)))
            gammaWords[i] = 0xFF00_0000 | value << 16
            gammaWords[PreviewISP.gammaStride + i] = value << 8
            gammaWords[2 * PreviewISP.gammaStride + i] = value
        }
    }

    /// A linear value (0…4095, clamped) as the displayed 8-bit sRGB value.
    static func gammaByte(linear: Double) -> UInt8 {
        UInt8(sRGBEncode(min(max(linear, 0), Double(linearMaximum)) / Double(linearMaximum)) * 255 + 0.5)
    }

    deinit {
        for pointer in [rowA, rowB] { pointer.deallocate() }
        lumaShares.deallocate()
        mix.deallocate()
        madeRows.deallocate()
        gammaWords.deallocate()
        gammaTable.deallocate()
    }

    /// The sRGB transfer curve (IEC 61966-2-1), linear 0…1 in, encoded 0…1 out.
    public static func sRGBEncode(_ linear: Double) -> Double {
        linear <= 0.003_130_8 ? 12.92 * max(linear, 0) : 1.055 * FastMath.pow(min(linear, 1), 1 / 2.4) - 0.055
    }

    /// The parameters and format the tables were built for.
    var currentParameters: ISPParameters? { parameters }
    var currentFormat: RawFormat? { lutFormat }

    /// The 8-bit displayed luma of one tile (white balance, gain, gamma; no colour matrix).
    @inline(__always)
    func displayedLuma(red: UInt16, green: UInt16, blue: UInt16) -> UInt32 {
        let mask = sampleMask
        let y = lumaShares[Int(red) & mask] &+ lumaShares[PreviewISP.mixGreen &+ 2 &* (Int(green) & mask)]
            &+ lumaShares[PreviewISP.mixBlue &+ Int(blue) & mask]
        // (The three shares of 4095, rounded, add up to 4095 and a fraction: inside the table.)
        return UInt32(gamma[Int(y &>> UInt32(PreviewISP.lumaFractionBits))])
    }

    /// Sets what the next frames get. Tables are rebuilt only when something changed.
    public func setParameters(_ newParameters: ISPParameters, format: RawFormat) {
        guard newParameters != parameters || format != lutFormat else { return }
        parameters = newParameters
        lutFormat = format
        sampleMask = format.maximumValue
        let range = Double(newParameters.whiteLevel - newParameters.blackLevel)
        let scale = Double(PreviewISP.linearMaximum) * newParameters.digitalGain / range
        let gains = newParameters.whiteBalance * scale
        // (No `map`: white balance moves every few frames, and this must not allocate.)
        let (m0, m1, m2, m3, m4, m5, m6, m7, m8) = PreviewColourMatrix.bounded(newParameters.colorMatrix.m)
        // Samples above the format's depth are noise from a bad frame: they saturate.
        for value in 0...format.maximumValue {
            let signal = Double(value - newParameters.blackLevel)
            let red = PreviewISP.clampLinear(signal * gains.x), blue = PreviewISP.clampLinear(signal * gains.z)
            mix[value] = PreviewISP.shares(red, m0, m3, m6)
            mix[PreviewISP.mixBlue + value] = PreviewISP.shares(blue, m2, m5, m8)
            lumaShares[value] = PreviewISP.lumaShare(red, weight: 0.2126)
            lumaShares[PreviewISP.mixBlue + value] = PreviewISP.lumaShare(blue, weight: 0.0722)
        }
        // Green: the two greens of a tile are averaged as signal, before any clipping, so a
        // hot or saturated one does not pull its tile's colour.
        for sum in 0...(2 * format.maximumValue) {
            let green = PreviewISP.clampLinear((Double(sum) / 2 - Double(newParameters.blackLevel)) * gains.y)
            mix[PreviewISP.mixGreen + sum] = PreviewISP.shares(green, m1, m4, m7)
            lumaShares[PreviewISP.mixGreen + sum] = PreviewISP.lumaShare(green, weight: 0.7152)
        }
    }

    static func lumaShare(_ linear: Float, weight: Double) -> UInt32 {
        UInt32((Double(linear) * weight * Double(1 << lumaFractionBits)).rounded())
    }

    /// (A NaN, from a NaN or infinite gain, is 0: these values index tables.)
    static func clampLinear(_ value: Double) -> Float {
        value > 0 ? Float(min(value, Double(linearMaximum))) : 0
    }

    /// Renders one Bayer frame. `crop` (sensor pixels; the digital zoom) defaults to the whole
    /// frame; `destination` is where the picture goes in the output, the rest is painted black.
    /// `rows` (default all) are the output rows to make: a band, so that two threads can make
    /// a frame together, each with a PreviewISP of its own; only the source rows the band
    /// needs are demosaiced.
    public func renderBayer(_ frame: UnsafeRawPointer, layout: RawLayout, crop: PixelRect? = nil,
                            into output: UnsafeMutablePointer<UInt32>, outputWidth: Int, outputHeight: Int,
                            outputStride: Int, destination: PixelRect, rows: Range<Int>? = nil) {
        precondition(layout.width <= maximumSourceWidth && layout.height <= maximumSourceHeight, "frame too large")
        precondition(destination.width <= maximumOutputWidth, "destination too wide")
        precondition(destination.x >= 0 && destination.y >= 0 && destination.width >= 0 && destination.height >= 0
                     && destination.x + destination.width <= outputWidth && destination.y + destination.height <= outputHeight
                     && outputWidth <= outputStride, "the destination lies inside the output")
        guard let format = lutFormat, format == layout.format else {
            preconditionFailure("setParameters(_:format:) for this format first")
        }
        let area = PreviewISP.alignedCrop(crop ?? PixelRect(x: 0, y: 0, width: layout.width, height: layout.height),
                                          layout: layout)
        // A frame four or more times the viewfinder's size (a 12 MP stream on a 1280x800
        // panel) is read as a sensor's skipping readout is: one tile of each 4×4 block, half
        // its rows never touched — a quarter of the work and half the memory traffic, for a
        // picture at least 90% of the viewfinder's resolution (scaled up by at most 1.1).
        let step = PreviewISP.tileStep(area: area, destination: destination)
        let tilesWide = area.width / (2 * step)
        let tilesHigh = area.height / (2 * step)
        let red = format.cfa.redPosition
        let directRows = format.packing == .unpacked16 && layout.bytesPerLine % 2 == 0
            && Int(bitPattern: frame) % 2 == 0
        let masked = format.packing.sampleBits > format.bitsPerSample
        var made = MadeRows(storage: madeRows, stride: madeRowStride)
        scaler.scale(width: tilesWide, height: tilesHigh, into: output, outputWidth: outputWidth, outputHeight: outputHeight,
                     outputStride: outputStride, destination: destination, rows: rows ?? 0..<outputHeight) { tileRow in
            made.row(tileRow) { tileRow, out in
                let y = area.y + tileRow * 2 * step
                let upperRow = frame + y * layout.bytesPerLine, lowerRow = upperRow + layout.bytesPerLine
                let redRowBytes = red.y == 0 ? upperRow : lowerRow
                let blueRowBytes = red.y == 0 ? lowerRow : upperRow
                var redRow = UnsafePointer(rowA), blueRow = UnsafePointer(rowB)
                if directRows {
                    // 16-bit little-endian samples are read where they lie: no unpacking pass.
                    redRow = redRowBytes.assumingMemoryBound(to: UInt16.self) + area.x
                    blueRow = blueRowBytes.assumingMemoryBound(to: UInt16.self) + area.x
                } else {
                    RawUnpacking.unpack(row: redRowBytes, packing: format.packing, first: area.x, count: area.width,
                                        into: rowA)
                    RawUnpacking.unpack(row: blueRowBytes, packing: format.packing, first: area.x, count: area.width,
                                        into: rowB)
                }
                // Samples index tables as long as the format's depth: a packing with room for
                // more bits is masked, so a corrupt sample cannot read past them.
                // (Each case spelled out, so the hot loop is made for constants.)
                switch (masked, step) {
                case (true, 1):
                    encodeTiles(redRow: redRow, blueRow: blueRow, redColumn: red.x, count: tilesWide, mask: sampleMask,
                                step: 1, into: out)
                case (false, 1):
                    encodeTiles(redRow: redRow, blueRow: blueRow, redColumn: red.x, count: tilesWide,
                                mask: Int(UInt16.max), step: 1, into: out)
                case (true, _):
                    encodeTiles(redRow: redRow, blueRow: blueRow, redColumn: red.x, count: tilesWide, mask: sampleMask,
                                step: 2, into: out)
                case (false, _):
                    encodeTiles(redRow: redRow, blueRow: blueRow, redColumn: red.x, count: tilesWide,
                                mask: Int(UInt16.max), step: 2, into: out)
                }
            }
        }
    }

    /// Renders one YUYV frame (a UVC camera's usual format; BT.601, limited range): each
    /// 2×2 block becomes one pixel, the same half-size image the Bayer path makes, then the
    /// same scaling. The camera has done white balance and gamma; the parameters do not apply.
    /// `crop` (frame pixels, the digital zoom) as for Bayer frames: only its blocks are converted.
    public func renderYUYV(_ frame: UnsafeRawPointer, width: Int, height: Int, bytesPerLine: Int, crop: PixelRect? = nil,
                           into output: UnsafeMutablePointer<UInt32>, outputWidth: Int, outputHeight: Int,
                           outputStride: Int, destination: PixelRect, rows: Range<Int>? = nil) {
        precondition(width <= maximumSourceWidth && height <= maximumSourceHeight, "frame too large")
        precondition(destination.width <= maximumOutputWidth, "destination too wide")
        // Whole 2×2 blocks, so a block's pair of pixels shares its U and V.
        let area = PreviewISP.alignedCrop(crop ?? PixelRect(x: 0, y: 0, width: width, height: height),
                                          width: width, height: height, step: 2)
        let blocksWide = area.width / 2, blocksHigh = area.height / 2
        var made = MadeRows(storage: madeRows, stride: madeRowStride)
        scaler.scale(width: blocksWide, height: blocksHigh, into: output, outputWidth: outputWidth, outputHeight: outputHeight,
                     outputStride: outputStride, destination: destination, rows: rows ?? 0..<outputHeight) { blockRow in
            made.row(blockRow) { blockRow, out in
                let upper = (frame + (area.y + 2 * blockRow) * bytesPerLine + area.x * 2).assumingMemoryBound(to: UInt8.self)
                let lower = upper + bytesPerLine
                for block in 0..<blocksWide {
                    let i = block &* 4  // Y0 U Y1 V
                    let y = (Int32(upper[i]) &+ Int32(upper[i &+ 2]) &+ Int32(lower[i]) &+ Int32(lower[i &+ 2]) &+ 2) &>> 2
                    let u = ((Int32(upper[i &+ 1]) &+ Int32(lower[i &+ 1]) &+ 1) &>> 1) &- 128
                    let v = ((Int32(upper[i &+ 3]) &+ Int32(lower[i &+ 3]) &+ 1) &>> 1) &- 128
                    let c = (y &- 16) &* 298
                    let r = min(max((c &+ 409 &* v &+ 128) &>> 8, 0), 255)
                    let g = min(max((c &- 100 &* u &- 208 &* v &+ 128) &>> 8, 0), 255)
                    let b = min(max((c &+ 516 &* u &+ 128) &>> 8, 0), 255)
                    out[block] = 0xFF00_0000 | UInt32(r) &<< 16 | UInt32(g) &<< 8 | UInt32(b)
                }
            }
        }
    }

    /// Renders a picture already at half size (a Motion-JPEG frame decoded at 1/2 scale):
    /// only the scaling of `crop` (the picture's pixels, the digital zoom; default all of it)
    /// into `destination`, the letterbox black.
    public func renderHalfSizeXRGB(_ pixels: UnsafePointer<UInt32>, width: Int, height: Int, crop: PixelRect? = nil,
                                   into output: UnsafeMutablePointer<UInt32>, outputWidth: Int, outputHeight: Int,
                                   outputStride: Int, destination: PixelRect, rows: Range<Int>? = nil) {
        // The scaler's row buffers hold half a source row: a half-size picture fits twice over.
        precondition(width * 2 <= maximumSourceWidth + 1 && height * 2 <= maximumSourceHeight + 1, "picture too large")
        precondition(destination.width <= maximumOutputWidth, "destination too wide")
        let area = PreviewISP.alignedCrop(crop ?? PixelRect(x: 0, y: 0, width: width, height: height),
                                          width: width, height: height, step: 1)
        let first = pixels + area.y * width + area.x
        scaler.scale(width: area.width, height: area.height, into: output, outputWidth: outputWidth, outputHeight: outputHeight,
                     outputStride: outputStride, destination: destination, rows: rows ?? 0..<outputHeight) { row in
            first + row * width
        }
    }

    /// A crop moved and shrunk onto whole tiles and whole packing groups.
    /// Tiles taken a step apart: 2 (one of each 4×4 block) when even that picture has 90% of
    /// the destination's width and height, else 1 (every tile).
    static func tileStep(area: PixelRect, destination: PixelRect) -> Int {
        area.width / 4 * 10 >= destination.width * 9 && area.height / 4 * 10 >= destination.height * 9 ? 2 : 1
    }

    static func alignedCrop(_ crop: PixelRect, layout: RawLayout) -> PixelRect {
        let step = layout.format.packing.samplesPerGroup == 1 ? 2 : max(2, layout.format.packing.samplesPerGroup)
        return alignedCrop(crop, width: layout.width, height: layout.height, step: step, rows: 2)
    }

    /// A crop moved inside a `width`×`height` picture and shrunk onto whole units: its left
    /// edge on multiples of `step`, its top on multiples of `rows`, its size on multiples of
    /// `rows` (a Bayer tile, a YUYV block; 1 for pixels).
    static func alignedCrop(_ crop: PixelRect, width: Int, height: Int, step: Int, rows: Int? = nil) -> PixelRect {
        let unit = rows ?? step
        let x = min(max(crop.x, 0), width - unit) / step * step
        let y = min(max(crop.y, 0), height - unit) / unit * unit
        let w = max(unit, min(crop.width, width - x) / unit * unit)
        let h = max(unit, min(crop.height, height - y) / unit * unit)
        return PixelRect(x: x, y: y, width: w, height: h)
    }

    /// A row of tiles from 16-bit samples (unpacked, or read where they lie), each masked by
    /// `mask`: each tile's three shares added and gamma-encoded into `out`.
    @inline(__always)
    private func encodeTiles(redRow: UnsafePointer<UInt16>, blueRow: UnsafePointer<UInt16>,
                             redColumn: Int, count: Int, mask: Int, step: Int, into out: UnsafeMutablePointer<UInt32>) {
        let greenColumn = 1 - redColumn
        let mix = self.mix, gammaWords = self.gammaWords
        for tile in 0..<count {
            let x = tile &* 2 &* step
            out[tile] = PreviewISP.encode(red: Int(redRow[x &+ redColumn]) & mask,
                                          greens: (Int(redRow[x &+ greenColumn]) & mask) &+ (Int(blueRow[x &+ redColumn]) & mask),
                                          blue: Int(blueRow[x &+ greenColumn]) & mask, mix, gammaWords)
        }
    }

    /// A tile → XRGB: its three shares added (the colour matrix), then each lane indexes its
    /// gamma table from the bottom.
    @inline(__always)
    static func encode(red: Int, greens: Int, blue: Int, _ mix: UnsafeMutablePointer<UInt64>,
                       _ gammaWords: UnsafeMutablePointer<UInt32>) -> UInt32 {
        let sum = mix[red] &+ mix[mixGreen &+ greens] &+ mix[mixBlue &+ blue]
        return gammaWords[Int(UInt16(truncatingIfNeeded: sum))]
            | gammaWords[gammaStride &+ Int(UInt16(truncatingIfNeeded: sum &>> 16))]
            | gammaWords[2 &* gammaStride &+ Int(truncatingIfNeeded: sum &>> 48)]
    }

    /// One sample's packed shares: `linear` times the matrix's column (`c0`, `c1`, `c2`), each
    /// biased by `gammaBelow` (boundedMatrix keeps every product above -gammaBelow), in fixed
    /// point, rounded.
    static func shares(_ linear: Float, _ c0: Float, _ c1: Float, _ c2: Float) -> UInt64 {
        let unit = Double(1 << mixFractionBits), bias = Double(gammaBelow)
        @inline(__always) func lane(_ c: Float) -> UInt64 {
            UInt64(max(((Double(c) * Double(linear) + bias) * unit).rounded(), 0))
        }
        return lane(c0) | lane(c1) &<< 16 | lane(c2) &<< 48
    }
}

/// The two rows of a half-size picture that the scaler blends, each made (by `make`, into its
/// slot) when first asked for. The picture is never whole in memory, so its rows are still in
/// the cache when they are blended, and rows that no output row reads are never made.
private struct MadeRows {
    let storage: UnsafeMutablePointer<UInt32>
    let stride: Int
    /// The row each slot holds (-1: none yet). Row r lives in slot r % 2, so the two rows of a
    /// blend, r and r + 1, never share one.
    private var held = (-1, -1)

    init(storage: UnsafeMutablePointer<UInt32>, stride: Int) {
        self.storage = storage
        self.stride = stride
    }

    @inline(__always)
    mutating func row(_ index: Int, make: (Int, UnsafeMutablePointer<UInt32>) -> Void) -> UnsafePointer<UInt32> {
        let slot = index & 1
        let pointer = storage + slot * stride
        if slot == 0 {
            if held.0 != index { make(index, pointer); held.0 = index }
        } else if held.1 != index {
            make(index, pointer); held.1 = index
        }
        return UnsafePointer(pointer)
    }
}
