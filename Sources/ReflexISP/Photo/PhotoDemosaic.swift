import ReflexCore

/// The photo's demosaic: every pixel gets all three colours at full resolution, linear, in
/// the camera's own colours with the white balance applied (the preview, by contrast, makes
/// one pixel from each 2×2 tile).
///
/// Green first, where edges decide it most: at a red or blue pixel, a horizontal and a
/// vertical estimate (the neighbours' green, corrected by the pixel's own colour's curvature,
/// Hamilton and Adams) are blended by how smooth each direction is, over a small window, so
/// an edge is followed rather than blurred across. Then red and blue as differences from
/// green, which vary slowly even where the picture does not: at red and blue pixels from the
/// four diagonal neighbours, at green pixels from the four side neighbours, each weighted by
/// the green plane's smoothness in its direction.
///
/// It works in horizontal bands of output rows (with a margin of source rows around them,
/// mirrored at the frame's edges), so that the buffers stay small, in cache, and two threads
/// can make a photo together, each with a PhotoDemosaic of its own. Allocates only at init.
public final class PhotoDemosaic {
    /// Source rows and columns read around a band.
    static let margin = 4
    public let maximumWidth: Int
    public let maximumBandRows: Int
    /// Floats a buffer row: the widest band and its margins.
    private let stride: Int
    private let rowCapacity: Int
    /// The band's samples (white-balanced, 0…1), green at every pixel, and red − green and
    /// blue − green where known.
    private let samples: UnsafeMutablePointer<Float>
    private let green: UnsafeMutablePointer<Float>
    private let redDifference: UnsafeMutablePointer<Float>
    private let blueDifference: UnsafeMutablePointer<Float>
    private let unpacked: UnsafeMutablePointer<UInt16>
    private let unpackedCapacity: Int
    /// A finished row's red and blue, as `emit` gets them.
    private let outputRed: UnsafeMutablePointer<Float>
    private let outputBlue: UnsafeMutablePointer<Float>

    /// `maximumWidth`: the widest crop; `maximumSourceWidth`: the widest frame row.
    public init(maximumWidth: Int, maximumSourceWidth: Int, maximumBandRows: Int) {
        self.maximumWidth = maximumWidth
        self.maximumBandRows = maximumBandRows
        stride = maximumWidth + 2 * PhotoDemosaic.margin
        rowCapacity = maximumBandRows + 2 * PhotoDemosaic.margin
        let count = stride * rowCapacity
        samples = .allocate(capacity: count)
        green = .allocate(capacity: count)
        redDifference = .allocate(capacity: count)
        blueDifference = .allocate(capacity: count)
        for plane in [samples, green, redDifference, blueDifference] { plane.initialize(repeating: 0, count: count) }
        unpackedCapacity = maximumSourceWidth + 8
        unpacked = .allocate(capacity: unpackedCapacity)
        outputRed = .allocate(capacity: stride)
        outputBlue = .allocate(capacity: stride)
    }

    deinit {
        for plane in [samples, green, redDifference, blueDifference] { plane.deallocate() }
        unpacked.deallocate()
        outputRed.deallocate()
        outputBlue.deallocate()
    }

    /// Demosaics output rows `rows` of `crop` (even-aligned, inside the frame) and hands each
    /// finished row to `emit` as linear red, green and blue (camera colours, white-balanced,
    /// 0…1 before clipping), `crop.width` floats each, valid during the call.
    public func demosaic(_ frame: UnsafeRawPointer, layout: RawLayout, parameters: ISPParameters, crop: PixelRect,
                         rows: Range<Int>,
                         emit: (_ row: Int, _ red: UnsafePointer<Float>, _ green: UnsafePointer<Float>,
                                _ blue: UnsafePointer<Float>) -> Void) {
        precondition(crop.width <= maximumWidth && rows.count <= maximumBandRows, "band too large")
        precondition(layout.width <= unpackedCapacity - 8, "frame too wide")
        precondition(crop.x % 2 == 0 && crop.y % 2 == 0 && crop.x + crop.width <= layout.width
                     && crop.y + crop.height <= layout.height && rows.upperBound <= crop.height, "crop inside the frame")
        let m = PhotoDemosaic.margin
        let bandRows = rows.count + 2 * m
        let bandColumns = crop.width + 2 * m
        let red = layout.format.cfa.redPosition
        // Band coordinates (i, j) are source (crop.x − m + i, crop.y + rows.lowerBound − m + j).
        // The CFA's phase there: margins and crops are even, so it is the source's.
        let originX = crop.x - m, originY = crop.y + rows.lowerBound - m
        load(frame, layout: layout, parameters: parameters, originX: originX, originY: originY,
             rows: bandRows, columns: bandColumns)
        interpolateGreen(rows: bandRows, columns: bandColumns, redX: red.x, redY: red.y, originY: originY)
        colourDifferences(rows: bandRows, columns: bandColumns, redX: red.x, redY: red.y, originY: originY)
        // Red and blue from their differences; rows inside the margins only.
        let outRed = outputRed, outBlue = outputBlue
        for j in m..<(m + rows.count) {
            let g = green + j * stride + m, dr = redDifference + j * stride + m, db = blueDifference + j * stride + m
            for i in 0..<crop.width {
                outRed[i] = g[i] + dr[i]
                outBlue[i] = g[i] + db[i]
            }
            emit(rows.lowerBound + j - m, outRed, g, outBlue)
        }
    }

    /// The band's samples, scaled so white is 1 and white-balanced (each site by its own
    /// colour's gain), with the frame's edges mirrored (an even mirror keeps the CFA phase).
    private func load(_ frame: UnsafeRawPointer, layout: RawLayout, parameters: ISPParameters,
                      originX: Int, originY: Int, rows: Int, columns: Int) {
        let red = layout.format.cfa.redPosition
        let scale = parameters.digitalGain / Double(parameters.whiteLevel - parameters.blackLevel)
        let gains = parameters.whiteBalance * scale
        let black = Float(parameters.blackLevel)
        let maximum = UInt16(truncatingIfNeeded: layout.format.maximumValue)
        for j in 0..<rows {
            let y = PhotoDemosaic.mirror(originY + j, count: layout.height)
            RawUnpacking.unpack(row: frame + y * layout.bytesPerLine, packing: layout.format.packing, first: 0,
                                count: layout.width, into: unpacked)
            // The gain of even and odd columns on this row: red/green or green/blue.
            let onRedRow = y % 2 == red.y
            let evenColumnIsRed = red.x == 0
            let gainEven = Float(onRedRow ? (evenColumnIsRed ? gains.x : gains.y) : (evenColumnIsRed ? gains.y : gains.z))
            let gainOdd = Float(onRedRow ? (evenColumnIsRed ? gains.y : gains.x) : (evenColumnIsRed ? gains.z : gains.y))
            let out = samples + j * stride
            for i in 0..<columns {
                let x = PhotoDemosaic.mirror(originX + i, count: layout.width)
                let value = Float(min(unpacked[x], maximum)) - black
                let level = value * (x & 1 == 0 ? gainEven : gainOdd)
                // Clipped as the preview clips: a saturated channel stays white, not pink.
                // (A NaN, from a broken gain, compares false: 0.)
                out[i] = level > 0 ? min(level, 1) : 0
            }
        }
    }

    /// Reflects an index that fell outside 0..<count back inside, by an even amount.
    @inline(__always)
    static func mirror(_ index: Int, count: Int) -> Int {
        if index < 0 { return min(-index, count - 1 - (count - 1 + index) % 2) }
        if index >= count { return max(2 * (count - 1) - index, 0) }
        return index
    }

    /// Green at every pixel (at the band's outer two rows and columns, which only margins
    /// read, the sample itself).
    private func interpolateGreen(rows: Int, columns: Int, redX: Int, redY: Int, originY: Int) {
        let s = stride
        let epsilon: Float = 1e-5
        for j in 0..<rows {
            let c = samples + j * s, g = green + j * s
            g.update(from: c, count: columns)
            guard j >= 2 && j < rows - 2 else { continue }
            // The red or blue sites of this row.
            var i = (originY + j) & 1 == redY ? redX : 1 - redX
            if i < 2 { i += 2 }
            while i < columns - 2 {
                let centre = c[i]
                let left = c[i - 1], right = c[i + 1], up = c[i - s], down = c[i + s]
                let curvatureH = 2 * centre - c[i - 2] - c[i + 2]
                let curvatureV = 2 * centre - c[i - 2 * s] - c[i + 2 * s]
                let estimateH = (left + right) * 0.5 + curvatureH * 0.25
                let estimateV = (up + down) * 0.5 + curvatureV * 0.25
                // Each direction's roughness, over the pixel and its neighbours along it.
                let roughH = abs(left - right) + abs(curvatureH)
                    + 0.5 * (abs(c[i - 2] - centre) + abs(c[i + 2] - centre))
                    + 0.5 * (abs(c[i - s - 1] - c[i - s + 1]) + abs(c[i + s - 1] - c[i + s + 1]))
                let roughV = abs(up - down) + abs(curvatureV)
                    + 0.5 * (abs(c[i - 2 * s] - centre) + abs(c[i + 2 * s] - centre))
                    + 0.5 * (abs(c[i - s - 1] - c[i + s - 1]) + abs(c[i - s + 1] - c[i + s + 1]))
                let weightH = 1 / ((roughH + epsilon) * (roughH + epsilon))
                let weightV = 1 / ((roughV + epsilon) * (roughV + epsilon))
                g[i] = (estimateH * weightH + estimateV * weightV) / (weightH + weightV)
                i += 2
            }
        }
    }

    /// Red − green and blue − green at every pixel of rows 3..<rows−3.
    private func colourDifferences(rows: Int, columns: Int, redX: Int, redY: Int, originY: Int) {
        let s = stride
        let epsilon: Float = 1e-5
        // At each red and blue site: its own difference.
        for j in 0..<rows {
            let onRedRow = (originY + j) & 1 == redY
            let c = samples + j * s, g = green + j * s
            let own = (onRedRow ? redDifference : blueDifference) + j * s
            var i = onRedRow ? redX : 1 - redX
            while i < columns { own[i] = c[i] - g[i]; i += 2 }
        }
        // At red sites the blue difference, at blue sites the red, from the four diagonals,
        // each weighted by how little green changes along its diagonal.
        for j in 1..<(rows - 1) {
            let onRedRow = (originY + j) & 1 == redY
            let g = green + j * s
            let known = (onRedRow ? blueDifference : redDifference) + j * s
            var i = onRedRow ? redX : 1 - redX
            if i == 0 { i = 2 }
            while i < columns - 1 {
                let wNW = 1 / (abs(g[i] - g[i - s - 1]) + abs(known[i - s - 1] - known[i + s + 1]) + epsilon)
                let wNE = 1 / (abs(g[i] - g[i - s + 1]) + abs(known[i - s + 1] - known[i + s - 1]) + epsilon)
                let wSW = 1 / (abs(g[i] - g[i + s - 1]) + abs(known[i + s - 1] - known[i - s + 1]) + epsilon)
                let wSE = 1 / (abs(g[i] - g[i + s + 1]) + abs(known[i + s + 1] - known[i - s - 1]) + epsilon)
                known[i] = (known[i - s - 1] * wNW + known[i - s + 1] * wNE + known[i + s - 1] * wSW + known[i + s + 1] * wSE)
                    / (wNW + wNE + wSW + wSE)
                i += 2
            }
        }
        // At green sites both, from the four side neighbours (now known for both colours).
        for j in 2..<(rows - 2) {
            let onRedRow = (originY + j) & 1 == redY
            let g = green + j * s, dr = redDifference + j * s, db = blueDifference + j * s
            var i = onRedRow ? 1 - redX : redX
            if i == 0 { i = 2 }
            while i < columns - 1 {
                let wW = 1 / (abs(g[i] - g[i - 1]) + abs(g[i - 1] - g[i + 1]) * 0.5 + epsilon)
                let wE = 1 / (abs(g[i] - g[i + 1]) + abs(g[i + 1] - g[i - 1]) * 0.5 + epsilon)
                let wN = 1 / (abs(g[i] - g[i - s]) + abs(g[i - s] - g[i + s]) * 0.5 + epsilon)
                let wS = 1 / (abs(g[i] - g[i + s]) + abs(g[i + s] - g[i - s]) * 0.5 + epsilon)
                let total = wW + wE + wN + wS
                dr[i] = (dr[i - 1] * wW + dr[i + 1] * wE + dr[i - s] * wN + dr[i + s] * wS) / total
                db[i] = (db[i - 1] * wW + db[i + 1] * wE + db[i - s] * wN + db[i + s] * wS) / total
                i += 2
            }
        }
    }
}
