import ReflexCore
/// Bilinear scaling of an XRGB8888 picture into a rectangle of the output, black around it:
/// the last stage of the preview ISP.
///
/// Each output pixel blends two source rows, then two columns. A weight that is a whole
/// eighth is blended by halving: up to three averages (`eighths`), which SSE2 and NEON do
/// sixteen bytes an instruction, rounded down between rows and up between columns so that
/// the two roundings cancel (on average within 0.01 of a level of exact bilinear, never more
/// than 1.125 from it). That is every weight of the 4/3 upscale of
/// a 1080p sensor's half-size picture into a 720-line viewfinder, the camera's usual case, so
/// that case has a path of its own that uses no multiply. Other weights (a zoomed crop's)
/// are 1/256ths, multiplied and rounded, two channels a multiply.
final class PictureScaler {
    /// Where each destination column samples the source: index and weight of the next column
    /// out of 256.
    private let columnIndex: UnsafeMutablePointer<Int32>
    private let columnFraction: UnsafeMutablePointer<UInt32>
    /// Two source rows blended vertically, for the horizontal pass.
    private let blendedRow: UnsafeMutablePointer<UInt32>
    /// The source and destination widths the column tables were made for (a frame is scaled
    /// in many bands, each a call: the tables are made once).
    private var tablesFor = (source: -1, destination: -1)

    init(maximumSourceWidth: Int, maximumOutputWidth: Int) {
        columnIndex = .allocate(capacity: maximumOutputWidth)
        columnFraction = .allocate(capacity: maximumOutputWidth)
        blendedRow = .allocate(capacity: maximumSourceWidth + 8)
    }

    deinit {
        columnIndex.deallocate()
        columnFraction.deallocate()
        blendedRow.deallocate()
    }

    /// Scales a `width`×`height` picture, whose rows `sourceRow` gives (asked for in order,
    /// upper before lower), into `destination`; black around it. Only output rows `band` are
    /// made, and only the source rows they blend are asked for. `width` is at most the
    /// `maximumSourceWidth` this scaler was made for.
    @inline(__always)
    func scale(width: Int, height: Int, into output: UnsafeMutablePointer<UInt32>, outputWidth: Int,
               outputHeight: Int, outputStride: Int, destination: PixelRect, rows band: Range<Int>,
               sourceRow: (Int) -> UnsafePointer<UInt32>) {
        let black: UInt32 = 0xFF00_0000
        let band = band.clamped(to: 0..<outputHeight)
        for y in band where y < destination.y || y >= destination.y + destination.height {
            (output + y * outputStride).update(repeating: black, count: outputWidth)
        }
        guard destination.width > 0, destination.height > 0 else { return }
        if tablesFor != (width, destination.width) {
            let stepX = Double(width) / Double(destination.width)
            for x in 0..<destination.width {
                let position = max((Double(x) + 0.5) * stepX - 0.5, 0)
                let index = min(Int(position), max(width - 2, 0))
                columnIndex[x] = Int32(index)
                columnFraction[x] = UInt32(min((position - Double(index)) * 256, 256))
            }
            tablesFor = (width, destination.width)
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
            let (upperIndex, fy) = PictureScaler.verticalTap(y, destinationHeight: destination.height, sourceHeight: height)
            let upper = sourceRow(upperIndex)
            let lower = height > 1 ? sourceRow(upperIndex + 1) : upper
            let blended = PictureScaler.blendRows(upper, lower, weight: fy, pixels: width, into: blendedRow)
            let out = row + destination.x
            var firstByTable = 0
            if threeToFour {
                // Width × 4/3: every 4 outputs blend the 5 sources from 3k−1 in eighths.
                PictureScaler.scaleThreeToFour(blended, groups: destination.width / 4, into: out)
                // The first group reaches left of the row and the last past its right end:
                // by the tables, which give the same eighths.
                PictureScaler.scaleColumns(blended, nextColumn: nextColumn, columnIndex: columnIndex,
                                           columnFraction: columnFraction, range: 0..<4, into: out)
                firstByTable = destination.width - 4
            }
            PictureScaler.scaleColumns(blended, nextColumn: nextColumn, columnIndex: columnIndex,
                                       columnFraction: columnFraction, range: firstByTable..<destination.width, into: out)
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

    /// The mean of two bytes, rounded up (the SIMD average instruction's rounding).
    @inline(__always)
    static func average(_ a: UInt8, _ b: UInt8) -> UInt8 {
        UInt8(truncatingIfNeeded: (UInt16(a) &+ UInt16(b) &+ 1) &>> 1)
    }

    /// The same for the four bytes of two words at once.
    @inline(__always)
    static func average(_ a: UInt32, _ b: UInt32) -> UInt32 {
        (a | b) &- (((a ^ b) & 0xFEFE_FEFE) &>> 1)
    }

    /// One pixel (all four bytes) `a` blended `eighths`/8 of the way to `b` by halving: each
    /// step averages the two ends (rounding up) and keeps the half the point lies in, until it
    /// lies on an average.
    @inline(__always)
    static func eighths(_ a: UInt32, _ b: UInt32, _ eighths: Int) -> UInt32 {
        if eighths <= 0 { return a }
        if eighths >= 8 { return b }
        var low = a, high = b, k = eighths
        while true {
            let middle = average(low, high)
            if k == 4 { return middle }
            if k < 4 { high = middle; k *= 2 } else { low = middle; k = k * 2 - 8 }
        }
    }

    /// Rows `upper` and `lower` blended with `weight`/256 of the lower; where the weight is 0
    /// or 256 that row itself, not a copy. Eighths are halved with averages rounded down: the
    /// rounding-up average of the bytes' complements, complemented.
    @inline(__always)
    private static func blendRows(_ upper: UnsafePointer<UInt32>, _ lower: UnsafePointer<UInt32>, weight: UInt32,
                                  pixels: Int, into buffer: UnsafeMutablePointer<UInt32>) -> UnsafePointer<UInt32> {
        if weight == 0 { return upper }
        if weight >= 256 { return lower }
        let u = UnsafeRawPointer(upper).assumingMemoryBound(to: UInt8.self)
        let l = UnsafeRawPointer(lower).assumingMemoryBound(to: UInt8.self)
        let out = UnsafeMutableRawPointer(buffer).assumingMemoryBound(to: UInt8.self)
        let count = pixels * 4
        // Each loop below is vectorised by the compiler.
        @inline(__always) func each(_ blend: (UInt8, UInt8) -> UInt8) {
            for i in 0..<count { out[i] = blend(u[i], l[i]) }
        }
        // Written out, as the same halving with rounding-down averages, so each loop vectorises.
        switch weight {
        case 32: each { u, l in ~average(~u, average(~u, average(~u, ~l))) }
        case 64: each { u, l in ~average(~u, average(~u, ~l)) }
        case 96: each { u, l in let m = average(~u, ~l); return ~average(average(~u, m), m) }
        case 128: each { u, l in ~average(~u, ~l) }
        case 160: each { u, l in let m = average(~u, ~l); return ~average(m, average(m, ~l)) }
        case 192: each { u, l in ~average(average(~u, ~l), ~l) }
        case 224: each { u, l in ~average(average(average(~u, ~l), ~l), ~l) }
        default:
            let lowerWeight = UInt16(weight), upperWeight = UInt16(256 - weight)
            each { UInt8(truncatingIfNeeded: (UInt16($0) &* upperWeight &+ UInt16($1) &* lowerWeight &+ 128) &>> 8) }
        }
        return UnsafePointer(buffer)
    }

    /// The 4/3 horizontal upscale of groups 1 ..< groups−1: output pixel j of group k is
    /// (7 − 2j)/8 of the way from source 3k−1+j to 3k+j. Each group is one 16-byte run of
    /// left pixels and the run one pixel on; in halving terms pixel j is avg(p, avg(q, m))
    /// with m = avg(left, right) and (p, q) = (right, right), (m, right), (m, left),
    /// (left, left), so one sequence of averages serves all four pixels.
    @inline(__always)
    private static func scaleThreeToFour(_ source: UnsafePointer<UInt32>, groups: Int,
                                         into out: UnsafeMutablePointer<UInt32>) {
        let from = UnsafeRawPointer(source).assumingMemoryBound(to: UInt8.self)
        let to = UnsafeMutableRawPointer(out).assumingMemoryBound(to: UInt8.self)
        typealias Bytes = SIMD16<UInt8>
        // Which bytes take right (or m) as q and p: the pixels' lanes, four bytes each.
        let qIsRight = Bytes(255, 255, 255, 255, 255, 255, 255, 255, 0, 0, 0, 0, 0, 0, 0, 0)
        let pIsRight = Bytes(255, 255, 255, 255, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let pIsMiddle = Bytes(0, 0, 0, 0, 255, 255, 255, 255, 255, 255, 255, 255, 0, 0, 0, 0)
        let pIsLeft = Bytes(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 255, 255)
        for group in 1..<max(groups - 1, 1) {
            let left = UnsafeRawPointer(from + (3 &* group &- 1) &* 4).loadUnaligned(as: Bytes.self)
            let right = UnsafeRawPointer(from + (3 &* group) &* 4).loadUnaligned(as: Bytes.self)
            let m = average(left, right)
            let q = (right & qIsRight) | (left & ~qIsRight)
            let p = (right & pIsRight) | (m & pIsMiddle) | (left & pIsLeft)
            UnsafeMutableRawPointer(to + group &* 16).storeBytes(of: average(p, average(q, m)), as: Bytes.self)
        }
    }

    /// The mean of two runs of 16 bytes, each rounded up.
    @inline(__always)
    static func average(_ a: SIMD16<UInt8>, _ b: SIMD16<UInt8>) -> SIMD16<UInt8> {
        (a | b) &- ((a ^ b) &>> 1)
    }

    /// Output columns `range` by their tables: weights in eighths by halving (rounding up),
    /// others by multiplying and rounding, red and blue sharing one multiply (16 bits apart),
    /// green another.
    @inline(__always)
    private static func scaleColumns(_ blendedRow: UnsafePointer<UInt32>, nextColumn: Int,
                                     columnIndex: UnsafeMutablePointer<Int32>, columnFraction: UnsafeMutablePointer<UInt32>,
                                     range: Range<Int>, into out: UnsafeMutablePointer<UInt32>) {
        for x in range {
            let i = Int(columnIndex[x])
            let fx = columnFraction[x]
            let a = blendedRow[i], b = blendedRow[i &+ nextColumn]
            if fx & 31 == 0 {
                out[x] = 0xFF00_0000 | eighths(a, b, Int(fx &>> 5))
            } else {
                let redBlue = ((a & 0xFF00FF) &* (256 &- fx) &+ (b & 0xFF00FF) &* fx &+ 0x80_0080) &>> 8
                let green = ((a & 0xFF00) &* (256 &- fx) &+ (b & 0xFF00) &* fx &+ 0x8000) &>> 8
                out[x] = 0xFF00_0000 | (redBlue & 0xFF00FF) | (green & 0xFF00)
            }
        }
    }
}
