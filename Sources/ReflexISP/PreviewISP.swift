import ReflexCore

/// The live preview's image pipeline: raw Bayer (or YUYV) in, XRGB8888 of the display's
/// size out, every frame, with no allocation once built.
///
/// Bayer frames are demosaiced at half resolution — one RGB pixel from each 2×2 tile, the
/// "superpixel" method (dcraw's half-size mode) — which is exact in colour, cheap, and has
/// as many pixels as a 1280-wide viewfinder needs from a 1080p sensor mode. Per tile:
/// unpack → black level, white balance, digital gain and normalisation (one lookup table per
/// channel) → colour matrix → gamma (a table). The half-size image is then scaled bilinearly
/// into the destination rectangle; the letterbox around it is black.
///
/// A row of tiles goes through three short loops rather than one long one: unpacking and the
/// channel tables (scalar: every sample is a lookup), the colour matrix and clamp (SIMD, eight
/// tiles a step), and the gamma table with the packing into XRGB (scalar lookups again). The
/// gamma table reaches below 0 and above 4095 so that it is also the clamp. One
/// fused loop needs more registers than x86-64 has and spills them every tile; split, each
/// loop stays in registers and the middle one vectorises.
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
    private let halfImage: UnsafeMutablePointer<UInt32>
    /// Sensor value → linear 0…4095 after black level, white balance, gain and normalisation.
    private let lutRed: UnsafeMutablePointer<Float>
    private let lutGreen: UnsafeMutablePointer<Float>
    private let lutBlue: UnsafeMutablePointer<Float>
    /// Linear → the 8-bit sRGB value, for -gammaBelow ..< 4096 + gammaAbove: 0 below 0, 255
    /// above 4095, so the colour matrix's results need no clamp. `gamma` points at linear 0.
    private let gammaTable: UnsafeMutablePointer<UInt8>
    private let gamma: UnsafeMutablePointer<UInt8>
    static let gammaBelow = 4 << linearBits
    static let gammaAbove = 4 << linearBits
    /// One row of tiles between the three loops: linear values before the colour matrix, and
    /// the gamma table's indices after it. Padded to whole SIMD steps.
    private let tileCapacity: Int
    private let linearRed: UnsafeMutablePointer<Float>
    private let linearGreen: UnsafeMutablePointer<Float>
    private let linearBlue: UnsafeMutablePointer<Float>
    private let levelRed: UnsafeMutablePointer<Int32>
    private let levelGreen: UnsafeMutablePointer<Int32>
    private let levelBlue: UnsafeMutablePointer<Int32>
    private let columnIndex: UnsafeMutablePointer<Int32>
    private let columnFraction: UnsafeMutablePointer<UInt32>
    /// Two source rows blended vertically, for the horizontal pass of the scaler.
    private let blendedRow: UnsafeMutablePointer<UInt32>

    /// The colour matrix, row by row, as a tuple so the hot loop reads it without an array.
    private var matrixTuple: (Float, Float, Float, Float, Float, Float, Float, Float, Float) = (1, 0, 0, 0, 1, 0, 0, 0, 1)
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
        halfImage = .allocate(capacity: (maximumSourceWidth / 2 + 1) * (maximumSourceHeight / 2 + 1))
        lutRed = .allocate(capacity: PreviewISP.lutSize)
        lutGreen = .allocate(capacity: 2 * PreviewISP.lutSize)  // indexed by the sum of a tile's two greens
        lutBlue = .allocate(capacity: PreviewISP.lutSize)
        gammaTable = .allocate(capacity: PreviewISP.gammaBelow + (1 << PreviewISP.linearBits) + PreviewISP.gammaAbove)
        gamma = gammaTable + PreviewISP.gammaBelow
        (gammaTable).initialize(repeating: 0, count: PreviewISP.gammaBelow)
        (gamma + (1 << PreviewISP.linearBits)).initialize(repeating: 255, count: PreviewISP.gammaAbove)
        tileCapacity = (maximumSourceWidth / 2 + 2 + PreviewISP.simdWidth - 1) / PreviewISP.simdWidth * PreviewISP.simdWidth
        // Zeroed: the padding past a row's last tile goes through the matrix too, and must be
        // a number.
        linearRed = .allocate(capacity: tileCapacity); linearRed.initialize(repeating: 0, count: tileCapacity)
        linearGreen = .allocate(capacity: tileCapacity); linearGreen.initialize(repeating: 0, count: tileCapacity)
        linearBlue = .allocate(capacity: tileCapacity); linearBlue.initialize(repeating: 0, count: tileCapacity)
        levelRed = .allocate(capacity: tileCapacity)
        levelGreen = .allocate(capacity: tileCapacity)
        levelBlue = .allocate(capacity: tileCapacity)
        columnIndex = .allocate(capacity: maximumOutputWidth)
        columnFraction = .allocate(capacity: maximumOutputWidth)
        let tiles = maximumSourceWidth / 2 + 8
        blendedRow = .allocate(capacity: tiles)
        for i in 0...Int(PreviewISP.linearMaximum) {
            gamma[i] = UInt8(PreviewISP.sRGBEncode(Double(i) / Double(PreviewISP.linearMaximum)) * 255 + 0.5)
        }
    }

    deinit {
        for pointer in [rowA, rowB] { pointer.deallocate() }
        for pointer in [lutRed, lutGreen, lutBlue] { pointer.deallocate() }
        columnIndex.deallocate()
        halfImage.deallocate()
        gammaTable.deallocate()
        columnFraction.deallocate()
        blendedRow.deallocate()
        for pointer in [linearRed, linearGreen, linearBlue] { pointer.deallocate() }
        for pointer in [levelRed, levelGreen, levelBlue] { pointer.deallocate() }
    }

    /// Tiles per step of the colour-matrix loop.
    static let simdWidth = 8

    /// The sRGB transfer curve (IEC 61966-2-1), linear 0…1 in, encoded 0…1 out.
    public static func sRGBEncode(_ linear: Double) -> Double {
        linear <= 0.003_130_8 ? 12.92 * max(linear, 0) : 1.055 * FastMath.pow(min(linear, 1), 1 / 2.4) - 0.055
    }

    /// The parameters and format the tables were built for.
    var currentParameters: ISPParameters? { parameters }
    var currentFormat: RawFormat? { lutFormat }

    /// Unpacks the two rows of tile row `y` (sensor rows y and y + 1) and hands them over as
    /// (the row holding red, the row holding blue).
    @inline(__always)
    func withRows(_ frame: UnsafeRawPointer, layout: RawLayout, y: Int,
                  _ body: (UnsafeMutablePointer<UInt16>, UnsafeMutablePointer<UInt16>) -> Void) {
        let packing = layout.format.packing
        RawUnpacking.unpack(row: frame + y * layout.bytesPerLine, packing: packing, first: 0,
                            count: layout.width, into: rowA)
        RawUnpacking.unpack(row: frame + (y + 1) * layout.bytesPerLine, packing: packing, first: 0,
                            count: layout.width, into: rowB)
        layout.format.cfa.redPosition.y == 0 ? body(rowA, rowB) : body(rowB, rowA)
    }

    /// The 8-bit displayed luma of one tile (white balance, gain, gamma; no colour matrix).
    @inline(__always)
    func displayedLuma(red: UInt16, green: UInt16, blue: UInt16) -> UInt32 {
        let mask = sampleMask
        let y = 0.2126 * lutRed[Int(red) & mask] + 0.7152 * lutGreen[2 &* (Int(green) & mask)] + 0.0722 * lutBlue[Int(blue) & mask]
        return UInt32(gamma[Int(y)])
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
        // Samples above the format's depth are noise from a bad frame: they saturate.
        for value in 0...format.maximumValue {
            let signal = Double(value - newParameters.blackLevel)
            lutRed[value] = PreviewISP.clampLinear(signal * gains.x)
            lutBlue[value] = PreviewISP.clampLinear(signal * gains.z)
        }
        // Green: the two greens of a tile are averaged as signal, before any clipping, so a
        // hot or saturated one does not pull its tile's colour.
        for sum in 0...(2 * format.maximumValue) {
            let signal = Double(sum) / 2 - Double(newParameters.blackLevel)
            lutGreen[sum] = PreviewISP.clampLinear(signal * gains.y)
        }
        // (No `map`: white balance moves every few frames, and this must not allocate.)
        matrixTuple = PreviewISP.boundedMatrix(newParameters.colorMatrix.m)
    }

    /// The colour matrix as the hot loop takes it. Every result of a row must stay inside the
    /// gamma table: a row whose positive (or negative) coefficients add up to more than the
    /// table's margin is scaled down, and a matrix with a non-number in it is the identity.
    /// (Real colour matrices are far inside: rows add to about 1, coefficients within ±3.)
    static func boundedMatrix(_ m: [Double]) -> (Float, Float, Float, Float, Float, Float, Float, Float, Float) {
        // (No arrays made here: this runs whenever white balance moves.)
        var finite = m.count == 9
        // (By index: an unoptimised build allocates in an array's iterator.)
        for i in m.indices where !m[i].isFinite { finite = false }
        guard finite else { return (1, 0, 0, 0, 1, 0, 0, 0, 1) }
        let reachAbove = Double(gammaAbove + (1 << linearBits) - 2) / Double(linearMaximum)
        let reachBelow = Double(gammaBelow - 2) / Double(linearMaximum)
        let s0 = rowShrink(m, 0, reachAbove, reachBelow), s1 = rowShrink(m, 1, reachAbove, reachBelow)
        let s2 = rowShrink(m, 2, reachAbove, reachBelow)
        return (Float(m[0] * s0), Float(m[1] * s0), Float(m[2] * s0),
                Float(m[3] * s1), Float(m[4] * s1), Float(m[5] * s1),
                Float(m[6] * s2), Float(m[7] * s2), Float(m[8] * s2))
    }

    /// How much a matrix row must shrink so its results stay inside the gamma table.
    private static func rowShrink(_ m: [Double], _ row: Int, _ reachAbove: Double, _ reachBelow: Double) -> Double {
        var positive = 0.0, negative = 0.0
        for i in row * 3..<row * 3 + 3 { if m[i] > 0 { positive += m[i] } else { negative -= m[i] } }
        // (Two-argument mins: the three-argument one is variadic, an array.)
        return min(min(1, reachAbove / max(positive, .leastNonzeroMagnitude)), reachBelow / max(negative, .leastNonzeroMagnitude))
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
        let tilesWide = area.width / 2
        let tilesHigh = area.height / 2
        let red = format.cfa.redPosition
        let directRows = format.packing == .unpacked16 && layout.bytesPerLine % 2 == 0
            && Int(bitPattern: frame) % 2 == 0
        let band = rows ?? 0..<outputHeight
        for tileRow in PreviewISP.sourceRows(forOutput: band, destination: destination, sourceHeight: tilesHigh) {
            let y = area.y + tileRow * 2
            let upperRow = frame + y * layout.bytesPerLine, lowerRow = upperRow + layout.bytesPerLine
            let redRowBytes = red.y == 0 ? upperRow : lowerRow
            let blueRowBytes = red.y == 0 ? lowerRow : upperRow
            if directRows {
                // 16-bit little-endian samples are read where they lie: no unpacking pass.
                linearizeTiles(redRow: redRowBytes.assumingMemoryBound(to: UInt16.self) + area.x,
                               blueRow: blueRowBytes.assumingMemoryBound(to: UInt16.self) + area.x,
                               redColumn: red.x, count: tilesWide)
            } else if format.packing == .csi2Packed10 {
                linearizePacked10(redRow: redRowBytes + area.x / 4 * 5, blueRow: blueRowBytes + area.x / 4 * 5,
                                  redColumn: red.x, count: tilesWide)
            } else {
                RawUnpacking.unpack(row: redRowBytes, packing: format.packing, first: area.x, count: area.width, into: rowA)
                RawUnpacking.unpack(row: blueRowBytes, packing: format.packing, first: area.x, count: area.width, into: rowB)
                linearizeTiles(redRow: rowA, blueRow: rowB, redColumn: red.x, count: tilesWide)
            }
            applyColourMatrix(count: tilesWide)
            encodeTiles(count: tilesWide, into: halfImage + tileRow * tilesWide)
        }
        scale(halfImage, width: tilesWide, height: tilesHigh, sourceStride: tilesWide, into: output,
              outputWidth: outputWidth, outputHeight: outputHeight, outputStride: outputStride, destination: destination,
              rows: band)
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
        let band = rows ?? 0..<outputHeight
        for blockRow in PreviewISP.sourceRows(forOutput: band, destination: destination, sourceHeight: blocksHigh) {
            let upper = (frame + (area.y + 2 * blockRow) * bytesPerLine + area.x * 2).assumingMemoryBound(to: UInt8.self)
            let lower = upper + bytesPerLine
            let out = halfImage + blockRow * blocksWide
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
        scale(halfImage, width: blocksWide, height: blocksHigh, sourceStride: blocksWide, into: output,
              outputWidth: outputWidth, outputHeight: outputHeight, outputStride: outputStride, destination: destination,
              rows: band)
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
        scale(UnsafeMutablePointer(mutating: pixels) + area.y * width + area.x, width: area.width, height: area.height,
              sourceStride: width, into: output, outputWidth: outputWidth, outputHeight: outputHeight,
              outputStride: outputStride, destination: destination, rows: rows ?? 0..<outputHeight)
    }

    /// A crop moved and shrunk onto whole tiles and whole packing groups.
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

    /// The first loop over a row of tiles: black level, white balance, gain and normalisation,
    /// one table lookup per channel, into the linear row buffers.
    @inline(__always)
    private func linearizeTiles(redRow: UnsafePointer<UInt16>, blueRow: UnsafePointer<UInt16>,
                                redColumn: Int, count: Int) {
        let mask = sampleMask
        let greenColumn = 1 - redColumn
        let lutRed = self.lutRed, lutGreen = self.lutGreen, lutBlue = self.lutBlue
        let linearRed = self.linearRed, linearGreen = self.linearGreen, linearBlue = self.linearBlue
        for tile in 0..<count {
            let x = tile &* 2
            linearRed[tile] = lutRed[Int(redRow[x &+ redColumn]) & mask]
            linearGreen[tile] = lutGreen[(Int(redRow[x &+ greenColumn]) & mask) &+ (Int(blueRow[x &+ redColumn]) & mask)]
            linearBlue[tile] = lutBlue[Int(blueRow[x &+ greenColumn]) & mask]
        }
    }

    /// The same as `linearizeTiles` for MIPI CSI-2 RAW10, unpacking as it goes: each 5-byte
    /// group of a row holds the 4 samples of two tiles (high bytes, then the low bits).
    @inline(__always)
    private func linearizePacked10(redRow: UnsafeRawPointer, blueRow: UnsafeRawPointer, redColumn: Int, count: Int) {
        let lutRed = self.lutRed, lutGreen = self.lutGreen, lutBlue = self.lutBlue
        let linearRed = self.linearRed, linearGreen = self.linearGreen, linearBlue = self.linearBlue
        let upper = redRow.assumingMemoryBound(to: UInt8.self)
        let lower = blueRow.assumingMemoryBound(to: UInt8.self)
        // The loop is written out once for each place red can be in its row, so every shift
        // below is a constant.
        @inline(__always) func run(redColumn: Int) {
            var index = 0
            var group = 0
            while index &+ 2 <= count {
                // A group: four high bytes (one 32-bit load) and a byte of their low bits.
                let upperHigh = UnsafeRawPointer(upper + group).loadUnaligned(as: UInt32.self)
                let lowerHigh = UnsafeRawPointer(lower + group).loadUnaligned(as: UInt32.self)
                let upperLow = UInt32(upper[group &+ 4]), lowerLow = UInt32(lower[group &+ 4])
                @inline(__always) func sample(_ high: UInt32, _ low: UInt32, _ lane: Int) -> Int {
                    Int((high &>> UInt32(lane &* 8)) & 0xFF) &<< 2 | Int((low &>> UInt32(lane &* 2)) & 3)
                }
                for pair in 0..<2 {
                    // In the red row the red sample is at `redColumn`, green beside it; in the
                    // blue row green sits under red and blue under green.
                    let first = pair &* 2
                    linearRed[index &+ pair] = lutRed[sample(upperHigh, upperLow, first &+ redColumn)]
                    linearGreen[index &+ pair] = lutGreen[sample(upperHigh, upperLow, first &+ 1 &- redColumn)
                        &+ sample(lowerHigh, lowerLow, first &+ redColumn)]
                    linearBlue[index &+ pair] = lutBlue[sample(lowerHigh, lowerLow, first &+ 1 &- redColumn)]
                }
                index &+= 2
                group &+= 5
            }
            if index < count {
                // An odd last tile: its half group, byte by byte.
                let tail = group
                @inline(__always) func sample(_ row: UnsafePointer<UInt8>, _ lane: Int) -> Int {
                    Int(row[tail &+ lane]) &<< 2 | (Int(row[tail &+ 4]) &>> (lane &* 2)) & 3
                }
                linearRed[index] = lutRed[sample(upper, redColumn)]
                linearGreen[index] = lutGreen[sample(upper, 1 &- redColumn) &+ sample(lower, redColumn)]
                linearBlue[index] = lutBlue[sample(lower, 1 &- redColumn)]
            }
        }
        if redColumn == 0 { run(redColumn: 0) } else { run(redColumn: 1) }
    }

    /// The second loop: the colour matrix and the clamp to 0…4095, eight tiles a step, into
    /// the gamma table's indices (rounded).
    @inline(__always)
    private func applyColourMatrix(count: Int) {
        typealias Vector = SIMD8<Float>
        let (m0, m1, m2, m3, m4, m5, m6, m7, m8) = matrixTuple
        // Adding 1.5 × 2²³ to a float within ±2²² leaves the integer, rounded to nearest, in the
        // low bits of its pattern: a conversion without the standard library's generic one,
        // which is not vectorised.
        let magic = Vector(repeating: 12_582_912), magicBits = SIMD8<Int32>(repeating: 0x4B40_0000)
        let linearRed = UnsafeRawPointer(self.linearRed), linearGreen = UnsafeRawPointer(self.linearGreen)
        let linearBlue = UnsafeRawPointer(self.linearBlue)
        let levelRed = UnsafeMutableRawPointer(self.levelRed), levelGreen = UnsafeMutableRawPointer(self.levelGreen)
        let levelBlue = UnsafeMutableRawPointer(self.levelBlue)
        @inline(__always) func level(_ v: Vector) -> SIMD8<Int32> {
            // Clamped first, so the conversion cannot overflow.
            // No clamp: the gamma table is the clamp.
            unsafeBitCast(v + magic, to: SIMD8<Int32>.self) &- magicBits
        }
        var offset = 0
        let end = count &* 4
        while offset < end {
            let r = linearRed.loadUnaligned(fromByteOffset: offset, as: Vector.self)
            let g = linearGreen.loadUnaligned(fromByteOffset: offset, as: Vector.self)
            let b = linearBlue.loadUnaligned(fromByteOffset: offset, as: Vector.self)
            levelRed.storeBytes(of: level(m0 * r + m1 * g + m2 * b), toByteOffset: offset, as: SIMD8<Int32>.self)
            levelGreen.storeBytes(of: level(m3 * r + m4 * g + m5 * b), toByteOffset: offset, as: SIMD8<Int32>.self)
            levelBlue.storeBytes(of: level(m6 * r + m7 * g + m8 * b), toByteOffset: offset, as: SIMD8<Int32>.self)
            offset &+= 4 &* PreviewISP.simdWidth
        }
    }

    /// The third loop: gamma by table, packed into XRGB.
    @inline(__always)
    private func encodeTiles(count: Int, into out: UnsafeMutablePointer<UInt32>) {
        let gamma = self.gamma
        let levelRed = self.levelRed, levelGreen = self.levelGreen, levelBlue = self.levelBlue
        for tile in 0..<count {
            out[tile] = 0xFF00_0000 | UInt32(gamma[Int(levelRed[tile])]) &<< 16
                | UInt32(gamma[Int(levelGreen[tile])]) &<< 8 | UInt32(gamma[Int(levelBlue[tile])])
        }
    }

    /// Bilinear scaling of XRGB pixels (`width`×`height`, rows `sourceStride` pixels apart)
    /// into `destination`, two channels per multiply (red and blue share a word 16 bits
    /// apart); black around it.
    private func scale(_ source: UnsafeMutablePointer<UInt32>, width: Int, height: Int, sourceStride: Int,
                       into output: UnsafeMutablePointer<UInt32>, outputWidth: Int, outputHeight: Int,
                       outputStride: Int, destination: PixelRect, rows band: Range<Int>) {
        let black: UInt32 = 0xFF00_0000
        let band = band.clamped(to: 0..<outputHeight)
        for y in band where y < destination.y || y >= destination.y + destination.height {
            (output + y * outputStride).update(repeating: black, count: outputWidth)
        }
        guard destination.width > 0, destination.height > 0 else { return }
        // Where each destination column samples the source: index and 8-bit fraction.
        let stepX = Double(width) / Double(destination.width)
        for x in 0..<destination.width {
            let position = max((Double(x) + 0.5) * stepX - 0.5, 0)
            let index = min(Int(position), max(width - 2, 0))
            columnIndex[x] = Int32(index)
            columnFraction[x] = UInt32(min((position - Double(index)) * 256, 256))
        }
        // The exact 4/3 horizontal upscale has a vectorised path (with at least 3 groups).
        let threeToFour = destination.width * 3 == width * 4 && destination.width % 4 == 0 && destination.width >= 12
        let nextColumn = width > 1 ? 1 : 0
        let pictureRows = band.clamped(to: destination.y..<destination.y + destination.height)
        for y in (pictureRows.lowerBound - destination.y)..<(pictureRows.upperBound - destination.y) {
            let row = output + (destination.y + y) * outputStride
            row.update(repeating: black, count: destination.x)
            (row + destination.x + destination.width)
                .update(repeating: black, count: max(outputWidth - destination.x - destination.width, 0))
            let (sourceRow, fy) = PreviewISP.verticalTap(y, destinationHeight: destination.height, sourceHeight: height)
            // Vertical pass: blend the two source rows byte by byte (vectorised by the compiler).
            let upper = UnsafeRawPointer(source + sourceRow * sourceStride).assumingMemoryBound(to: UInt8.self)
            let lower = height > 1 ? upper + sourceStride * 4 : upper
            let blended = UnsafeMutableRawPointer(blendedRow).assumingMemoryBound(to: UInt8.self)
            let lowerWeight = UInt16(fy), upperWeight = UInt16(256 - fy)
            for k in 0..<(width * 4) {
                blended[k] = UInt8(truncatingIfNeeded: (UInt16(upper[k]) &* upperWeight &+ UInt16(lower[k]) &* lowerWeight) &>> 8)
            }
            // Horizontal pass: two taps, red and blue sharing one multiply, green another.
            let out = row + destination.x
            var firstScalar = 0
            if threeToFour {
                // Width × 4/3 (960 → 1280, a 1080p sensor on a 720-line viewfinder): every 4
                // outputs blend the 5 sources from 3k−1 with fixed weights, so each group is
                // one 16-byte lerp of two overlapping 16-byte runs, which LLVM vectorises.
                PreviewISP.scaleThreeToFour(blendedRow, groups: destination.width / 4, into: out)
                firstScalar = destination.width - 4
                // The first group reaches left of the row: done below with the tables, as
                // is the last, which reaches past its right end.
                PreviewISP.scaleColumns(blendedRow, nextColumn: nextColumn, columnIndex: columnIndex,
                                        columnFraction: columnFraction, range: 0..<4, into: out)
            }
            PreviewISP.scaleColumns(blendedRow, nextColumn: nextColumn, columnIndex: columnIndex,
                                    columnFraction: columnFraction, range: firstScalar..<destination.width, into: out)
        }
    }

    /// Where destination row `y` samples the source vertically: the upper of its two source
    /// rows and the lower one's weight out of 256.
    @inline(__always)
    static func verticalTap(_ y: Int, destinationHeight: Int, sourceHeight: Int) -> (row: Int, weight: UInt32) {
        let step = Double(sourceHeight) / Double(destinationHeight)
        let position = max((Double(y) + 0.5) * step - 0.5, 0)
        let row = min(Int(position), max(sourceHeight - 2, 0))
        return (row, UInt32(min((position - Double(row)) * 256, 256)))
    }

    /// The source rows (of `sourceHeight`) that output rows `band` read when the picture is
    /// scaled into `destination`.
    static func sourceRows(forOutput band: Range<Int>, destination: PixelRect, sourceHeight: Int) -> Range<Int> {
        let picture = band.clamped(to: destination.y..<destination.y + destination.height)
        guard !picture.isEmpty, sourceHeight > 0 else { return 0..<0 }
        let first = verticalTap(picture.lowerBound - destination.y, destinationHeight: destination.height,
                                sourceHeight: sourceHeight).row
        let last = verticalTap(picture.upperBound - 1 - destination.y, destinationHeight: destination.height,
                               sourceHeight: sourceHeight).row
        return first..<min(last + 2, sourceHeight)
    }

    /// The 4/3 horizontal upscale of groups 1 ..< groups−1 (see `scale`).
    @inline(__always)
    private static func scaleThreeToFour(_ source: UnsafeMutablePointer<UInt32>, groups: Int,
                                         into out: UnsafeMutablePointer<UInt32>) {
        let from = UnsafeRawPointer(source).assumingMemoryBound(to: UInt8.self)
        let to = UnsafeMutableRawPointer(out).assumingMemoryBound(to: UInt8.self)
        // Output pixel j of a group sits (7 − 2j)/8 of the way from source 3k−1+j to 3k+j.
        let weights: (UInt16, UInt16, UInt16, UInt16) = (224, 160, 96, 32)
        for group in 1..<max(groups - 1, 1) {
            let left = from + (3 &* group &- 1) &* 4, right = left + 4
            let target = to + group &* 16
            for byte in 0..<16 {
                let w: UInt16 = switch byte >> 2 {
                case 0: weights.0
                case 1: weights.1
                case 2: weights.2
                default: weights.3
                }
                target[byte] = UInt8(truncatingIfNeeded: (UInt16(left[byte]) &* (256 &- w) &+ UInt16(right[byte]) &* w) &>> 8)
            }
        }
    }

    /// Output columns `range` by their tables: two taps each.
    @inline(__always)
    private static func scaleColumns(_ blendedRow: UnsafeMutablePointer<UInt32>, nextColumn: Int,
                                     columnIndex: UnsafeMutablePointer<Int32>, columnFraction: UnsafeMutablePointer<UInt32>,
                                     range: Range<Int>, into out: UnsafeMutablePointer<UInt32>) {
        for x in range {
                let i = Int(columnIndex[x])
                let fx = columnFraction[x]
                let a = blendedRow[i], b = blendedRow[i &+ nextColumn]
                let redBlue = ((a & 0xFF00FF) &* (256 &- fx) &+ (b & 0xFF00FF) &* fx) &>> 8
                let green = ((a & 0xFF00) &* (256 &- fx) &+ (b & 0xFF00) &* fx) &>> 8
                out[x] = 0xFF00_0000 | (redBlue & 0xFF00FF) | (green & 0xFF00)
            }
    }
}
