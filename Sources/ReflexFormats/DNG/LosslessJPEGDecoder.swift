/// Reads ITU T.81's lossless JPEG (process 14, SOF3), the compression DNG calls 7: the
/// tiles our own DNGs are stored in, and those of other cameras' DNGs written the same way
/// (Adobe's converter among them): predictor 1, 1 to 4 interleaved components with one sample
/// each per unit, 2 to 16 bits, a point transform. (Other predictors and restart intervals,
/// which DNG writers do not use, are refused by name.) Every length and offset is
/// checked: a damaged tile is an error, never a read outside it. (Debian 12's libjpeg-turbo
/// 2.1 does not read lossless JPEG: this is ours, as the encoder is.)
public enum LosslessJPEGDecoder {
    /// A decoded tile: `height` rows of `width` samples (the frame's width times its
    /// components: two components of a CFA row make one row of the tile).
    public struct Tile: Sendable {
        public let width: Int
        public let height: Int
        public let samples: [UInt16]
    }

    /// Decodes `jpeg` (SOI to EOI) whole.
    /// The most samples a tile may have (a DNG's tiles are far smaller).
    public static let largestSamples = 1 << 26

    public static func decode(_ jpeg: UnsafeBufferPointer<UInt8>) throws(RawFileError) -> Tile {
        let header = try Header(jpeg)
        guard let scan = header.scan else { throw RawFileError("the lossless JPEG has no scan") }
        // A few header bytes must not cost gigabytes: a DNG's tiles hold at most 2^26 samples
        // (DNGRaw's bound), and each sample takes at least one bit of the scan, so a scan too
        // short for its frame is said before anything is allocated.
        let count = header.rowSamples * header.height
        guard count <= largestSamples else { throw RawFileError("a lossless JPEG of \(count) samples, more than a tile holds") }
        guard (jpeg.count - scan) * 8 >= count else {
            throw RawFileError("the lossless JPEG's scan is cut short (\(jpeg.count - scan) bytes for \(count) samples)")
        }
        var samples = [UInt16](repeating: 0, count: header.rowSamples * header.height)
        try samples.withUnsafeMutableBufferPointer { out throws(RawFileError) in
            var bits = BitReader(jpeg, from: scan)
            try decodeScan(header, bits: &bits, into: out.baseAddress!)
        }
        return Tile(width: header.rowSamples, height: header.height, samples: samples)
    }

    /// The differences read and added to each sample's prediction, row by row (T.81 H.1.2.1
    /// with predictor 1: the scan's first sample from the middle of the range, each row's
    /// first from above, every other from the left).
    private static func decodeScan(_ header: Header, bits: inout BitReader,
                                   into out: UnsafeMutablePointer<UInt16>) throws(RawFileError) {
        let components = header.components, width = header.rowSamples, units = header.unitsPerRow
        let tables = header.scanTables
        // The components' lookups side by side in flat memory: the loop below runs for every
        // sample of a 12 MP raw and must not touch an array's reference count.
        let lookup = UnsafeMutablePointer<UInt16>.allocate(capacity: components << HuffmanTable.lookupBits)
        defer { lookup.deallocate() }
        for c in 0..<components { tables[c].copyLookup(into: lookup + c << HuffmanTable.lookupBits) }
        @inline(__always)
        func difference(_ c: Int) throws(RawFileError) -> Int {
            let entry = lookup[c << HuffmanTable.lookupBits | bits.peek(HuffmanTable.lookupBits)]
            let size: Int
            if entry != 0 {
                bits.skip(Int(entry & 0xFF))
                size = Int(entry >> 8)
            } else {
                size = try tables[c].longCodeSize(&bits)
            }
            if size == 0 { return 0 }
            if size == 16 { return 32768 }
            let value = bits.read(size)
            return value < 1 << (size - 1) ? value - (1 << size) + 1 : value
        }
        let shift = header.pointTransform
        let initial = 1 << (header.precision - shift - 1)
        for y in 0..<header.height {
            let row = out + y * width
            let above = out + max(y - 1, 0) * width
            for c in 0..<components {
                let prediction = y == 0 ? initial : Int(above[c]) >> shift
                row[c] = UInt16(truncatingIfNeeded: (prediction + (try difference(c))) << shift)
            }
            var at = components
            for _ in 1..<max(units, 1) {
                for c in 0..<components {
                    let prediction = Int(row[at - components]) >> shift
                    row[at] = UInt16(truncatingIfNeeded: (prediction + (try difference(c))) << shift)
                    at += 1
                }
            }
        }
        guard !bits.ranOut else { throw RawFileError("the lossless JPEG's data is cut off") }
    }

    /// SOI up to the scan: the frame (SOF3), the Huffman tables, the restart interval, the
    /// scan's header.
    private struct Header {
        var precision = 0
        var height = 0
        var unitsPerRow = 0
        var components = 0
        var componentIDs: [UInt8] = []
        var tables: [UInt8: HuffmanTable] = [:]
        var scanTables: [HuffmanTable] = []
        var predictor = 0
        var pointTransform = 0
        /// Where the entropy-coded data starts.
        var scan: Int?

        var rowSamples: Int { unitsPerRow * components }

        init(_ bytes: UnsafeBufferPointer<UInt8>) throws(RawFileError) {
            guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { throw RawFileError("not a JPEG") }
            var at = 2
            while scan == nil {
                guard at + 4 <= bytes.count, bytes[at] == 0xFF else { throw RawFileError("the JPEG's headers are cut off") }
                let marker = bytes[at + 1]
                if marker == 0xFF { at += 1; continue }  // fill bytes
                let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
                guard length >= 2, at + 2 + length <= bytes.count else { throw RawFileError("a JPEG segment runs past its end") }
                let body = UnsafeBufferPointer(rebasing: bytes[(at + 4)..<(at + 2 + length)])
                switch marker {
                case 0xC3: try readFrame(body)
                case 0xC0, 0xC1, 0xC2, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF:
                    throw RawFileError("not a lossless JPEG (SOF\(marker - 0xC0))")
                case 0xC4: try readTables(body)
                case 0xDD:
                    guard body.count >= 2, body[0] == 0 && body[1] == 0 else {
                        throw RawFileError("restart intervals are not read")
                    }
                case 0xDA:
                    try readScan(body)
                    scan = at + 2 + length
                default: break  // APPn, COM, …
                }
                at += 2 + length
            }
        }

        private mutating func readFrame(_ body: UnsafeBufferPointer<UInt8>) throws(RawFileError) {
            guard body.count >= 6 else { throw RawFileError("a short SOF3") }
            precision = Int(body[0])
            height = Int(body[1]) << 8 | Int(body[2])
            unitsPerRow = Int(body[3]) << 8 | Int(body[4])
            components = Int(body[5])
            guard (2...16).contains(precision), height > 0, unitsPerRow > 0, (1...4).contains(components),
                  body.count >= 6 + 3 * components else {
                throw RawFileError("an SOF3 of \(unitsPerRow)×\(height), \(components) components, \(precision) bits is not read")
            }
            for c in 0..<components {
                guard body[6 + 3 * c + 1] == 0x11 else { throw RawFileError("subsampled components are not read") }
                componentIDs.append(body[6 + 3 * c])
            }
        }

        private mutating func readTables(_ body: UnsafeBufferPointer<UInt8>) throws(RawFileError) {
            var at = 0
            while at < body.count {
                guard at + 17 <= body.count else { throw RawFileError("a short DHT") }
                let (kind, id) = (body[at] >> 4, body[at] & 0x0F)
                let counts = Array(body[(at + 1)..<(at + 17)])
                let total = counts.reduce(0) { $0 + Int($1) }
                guard at + 17 + total <= body.count else { throw RawFileError("a DHT's symbols run past its end") }
                // (Class 1, AC, is a lossy JPEG's; some writers send it anyway.)
                if kind == 0 {
                    tables[id] = try HuffmanTable(counts: counts, symbols: Array(body[(at + 17)..<(at + 17 + total)]))
                }
                at += 17 + total
            }
        }

        private mutating func readScan(_ body: UnsafeBufferPointer<UInt8>) throws(RawFileError) {
            guard components > 0 else { throw RawFileError("a scan before the frame") }
            guard body.count >= 1, Int(body[0]) == components, body.count >= 1 + 2 * components + 3 else {
                throw RawFileError("a scan that is not every component interleaved")
            }
            for c in 0..<components {
                guard body[1 + 2 * c] == componentIDs[c], let table = tables[body[2 + 2 * c] >> 4] else {
                    throw RawFileError("a scan's component has no Huffman table")
                }
                scanTables.append(table)
            }
            predictor = Int(body[1 + 2 * components])
            pointTransform = Int(body[3 + 2 * components] & 0x0F)
            guard predictor == 1, pointTransform < precision else {
                throw RawFileError("predictor \(predictor) with point transform \(pointTransform) is not read")
            }
        }
    }

    /// A DHT's code (T.81 Annex C): the codes of up to 9 bits looked up at once, the longer
    /// ones by their length's largest code (Annex F.2.2.3).
    struct HuffmanTable {
        static let lookupBits = 9
        /// Per 9-bit prefix: the symbol << 8 | its length, 0 where the code is longer.
        private var lookup = [UInt16](repeating: 0, count: 1 << lookupBits)
        private var largestCode = [Int](repeating: -1, count: 17)
        /// Per length: the index in `symbols` of its first code, minus that code.
        private var offset = [Int](repeating: 0, count: 17)
        private let symbols: [UInt8]

        init(counts: [UInt8], symbols: [UInt8]) throws(RawFileError) {
            self.symbols = symbols
            guard symbols.allSatisfy({ $0 <= 16 }) else { throw RawFileError("a lossless JPEG's difference is over 16 bits") }
            var code = 0, index = 0
            for length in 1...16 {
                let count = Int(counts[length - 1])
                offset[length] = index - code
                for _ in 0..<count {
                    // Checked before the code is used: one past the length's codes would
                    // index past the lookup table.
                    guard code < 1 << length else { throw RawFileError("a Huffman table with more codes than fit") }
                    if length <= HuffmanTable.lookupBits {
                        let spare = HuffmanTable.lookupBits - length
                        for fill in 0..<(1 << spare) {
                            lookup[code << spare | fill] = UInt16(symbols[index]) << 8 | UInt16(length)
                        }
                    }
                    code += 1
                    index += 1
                }
                if count > 0 { largestCode[length] = code - 1 }
                code <<= 1
            }
        }

        func copyLookup(into target: UnsafeMutablePointer<UInt16>) {
            lookup.withUnsafeBufferPointer { target.update(from: $0.baseAddress!, count: $0.count) }
        }

        /// The size of a difference whose code is longer than the lookup's (T.81 F.2.2.3).
        func longCodeSize(_ bits: inout BitReader) throws(RawFileError) -> Int {
            var code = bits.read(HuffmanTable.lookupBits), length = HuffmanTable.lookupBits
            while true {
                length += 1
                guard length <= 16 else { throw RawFileError("a code that is not in the Huffman table") }
                code = code << 1 | bits.read(1)
                if code <= largestCode[length] { break }
            }
            return Int(symbols[offset[length] + code])
        }
    }

    /// The entropy-coded bits, MSB first, with the 0xFF 0x00 stuffing taken out; a marker
    /// ends the data (reads past it give zeros, and `exhausted` says so).
    struct BitReader {
        private let bytes: UnsafeBufferPointer<UInt8>
        private var at: Int
        private var buffer: UInt64 = 0
        private var count = 0
        private var atMarker = false
        /// Bits given that were not in the data.
        private var padding = 0

        init(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) {
            (self.bytes, at) = (bytes, start)
        }

        @inline(__always)
        private mutating func fill() {
            while count <= 56 {
                var byte: UInt8 = 0
                if !atMarker, at < bytes.count {
                    byte = bytes[at]
                    if byte == 0xFF {
                        let next = at + 1 < bytes.count ? bytes[at + 1] : 0xD9
                        if next == 0x00 {
                            at += 2
                        } else {
                            atMarker = true
                            byte = 0
                            padding += 8
                        }
                    } else {
                        at += 1
                    }
                } else {
                    padding += 8
                }
                buffer |= UInt64(byte) << (56 - count)
                count += 8
            }
        }

        @inline(__always)
        mutating func peek(_ n: Int) -> Int {
            if count < n { fill() }
            return Int(buffer >> (64 - n))
        }

        @inline(__always)
        mutating func skip(_ n: Int) {
            buffer <<= n
            count -= n
        }

        @inline(__always)
        mutating func read(_ n: Int) -> Int {
            let value = peek(n)
            skip(n)
            return value
        }

        /// Whether more bits were read than the data had.
        var ranOut: Bool { padding > count }
    }
}
