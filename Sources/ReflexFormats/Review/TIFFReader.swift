/// A TIFF structure read in place from a file's bytes (an EXIF block, a DNG), every offset
/// checked against its bounds so a damaged or hostile file yields nil, never a read outside
/// it: its byte order, its directories (IFDs) and their entries' values.
struct TIFFReader {
    /// One directory entry: its tag, type, count, and where its value field is.
    struct Entry {
        let tag: Int
        let type: Int
        let count: Int
        let field: Int
    }

    let bytes: [UInt8]
    /// Where the TIFF header starts (offsets count from it) and where the TIFF ends.
    let start: Int
    let end: Int
    let littleEndian: Bool

    init?(_ bytes: [UInt8], start: Int = 0, end: Int? = nil) {
        let end = min(end ?? bytes.count, bytes.count)
        guard start >= 0, end - start >= 8 else { return nil }
        switch (bytes[start], bytes[start + 1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        (self.bytes, self.start, self.end) = (bytes, start, end)
        guard integer(at: start + 2, size: 2) == 42 else { return nil }
    }

    /// The TIFF of a JPEG's EXIF (its APP1 "Exif" segment), found among the markers before
    /// the picture's data.
    static func exif(inJPEG bytes: [UInt8]) -> TIFFReader? {
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var at = 2
        while at + 4 <= bytes.count, bytes[at] == 0xFF {
            let marker = bytes[at + 1], length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            guard marker != 0xDA, length >= 2, at + 2 + length <= bytes.count else { return nil }
            let body = (at + 4)..<(at + 2 + length)
            if marker == 0xE1, body.count > 14, bytes[body.lowerBound..<(body.lowerBound + 6)].elementsEqual("Exif\0\0".utf8) {
                return TIFFReader(bytes, start: body.lowerBound + 6, end: body.upperBound)
            }
            at = body.upperBound
        }
        return nil
    }

    /// An unsigned integer of `size` bytes at absolute position `at`, nil outside the TIFF.
    func integer(at position: Int, size: Int) -> Int? {
        guard position >= start, size <= 8, position + size <= end else { return nil }
        return (0..<size).reduce(0) { value, index in
            value << 8 | Int(bytes[position + (littleEndian ? size - 1 - index : index)])
        }
    }

    /// The first directory's offset (from `start`).
    var firstDirectory: Int? { integer(at: start + 4, size: 4) }

    /// The entries of the directory at `offset`, and the next directory's offset (0: none).
    func directory(at offset: Int) -> (entries: [Entry], next: Int)? {
        let at = start + offset
        guard offset > 0, let count = integer(at: at, size: 2), count <= 1024 else { return nil }
        var entries: [Entry] = []
        for index in 0..<count {
            let entry = at + 2 + index * 12
            guard let tag = integer(at: entry, size: 2), let type = integer(at: entry + 2, size: 2),
                  let values = integer(at: entry + 4, size: 4) else { return nil }
            entries.append(Entry(tag: tag, type: type, count: values, field: entry + 8))
        }
        guard let next = integer(at: at + 2 + count * 12, size: 4) else { return nil }
        return (entries, next)
    }

    /// The `index`th value of a SHORT or LONG entry (a short one's values in the field
    /// itself, a longer one's at the offset the field holds).
    func unsigned(_ entry: Entry, index: Int = 0) -> Int? {
        let size = entry.type == 3 ? 2 : entry.type == 4 ? 4 : 0
        guard size > 0, index >= 0, index < entry.count else { return nil }
        if size * entry.count <= 4 { return integer(at: entry.field + index * size, size: size) }
        guard let offset = integer(at: entry.field, size: 4) else { return nil }
        return integer(at: start + offset + index * size, size: size)
    }

    /// A RATIONAL (5) or SRATIONAL (10) entry's first value.
    func rational(_ entry: Entry) -> Double? {
        entry.type == 5 || entry.type == 10 ? number(entry) : nil
    }

    /// The largest magnitude a number is taken at: no tag a reader here follows means more (a
    /// size, an offset, a level), and so every number converts to Int and adds up without
    /// overflow. A FLOAT or DOUBLE beyond it, infinite or NaN is no number.
    static let largestNumber = Double(1 << 40)

    /// The `index`th value of any numeric entry (BYTE, SHORT, LONG, IFD, their signed kinds,
    /// RATIONAL, SRATIONAL, FLOAT, DOUBLE) as a Double; nil outside the TIFF or the count, or
    /// beyond `largestNumber`.
    func number(_ entry: Entry, index: Int = 0) -> Double? {
        rawNumber(entry, index: index).flatMap { abs($0) <= TIFFReader.largestNumber ? $0 : nil }
    }

    private func rawNumber(_ entry: Entry, index: Int) -> Double? {
        let sizes = [1: 1, 3: 2, 4: 4, 5: 8, 6: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 13: 4, 16: 8]
        guard let size = sizes[entry.type], index >= 0, index < entry.count, entry.count <= Int(Int32.max) / size else {
            return nil
        }
        let at: Int
        if size * entry.count <= 4 {
            at = entry.field + index * size
        } else {
            guard let offset = integer(at: entry.field, size: 4) else { return nil }
            at = start + offset + index * size
        }
        switch entry.type {
        case 5, 10:
            guard var numerator = integer(at: at, size: 4), var denominator = integer(at: at + 4, size: 4) else { return nil }
            if entry.type == 10 {
                numerator = Int(Int32(truncatingIfNeeded: numerator))
                denominator = Int(Int32(truncatingIfNeeded: denominator))
            }
            return denominator == 0 ? nil : Double(numerator) / Double(denominator)
        case 11: return integer(at: at, size: 4).map { Double(Float(bitPattern: UInt32(truncatingIfNeeded: $0))) }
        case 12: return integer(at: at, size: 8).map { Double(bitPattern: UInt64(UInt(bitPattern: $0))) }
        case 6: return integer(at: at, size: 1).map { Double(Int8(truncatingIfNeeded: $0)) }
        case 8: return integer(at: at, size: 2).map { Double(Int16(truncatingIfNeeded: $0)) }
        case 9: return integer(at: at, size: 4).map { Double(Int32(truncatingIfNeeded: $0)) }
        default: return integer(at: at, size: size).map(Double.init)
        }
    }

    /// Every value of a numeric entry (at most `limit` of them), nil if one cannot be read.
    func numbers(_ entry: Entry, limit: Int = 65536) -> [Double]? {
        guard entry.count <= limit else { return nil }
        var values: [Double] = []
        values.reserveCapacity(entry.count)
        for index in 0..<entry.count {
            guard let value = number(entry, index: index) else { return nil }
            values.append(value)
        }
        return values
    }

    /// An ASCII (2) entry's text, up to its first NUL.
    func text(_ entry: Entry) -> String? {
        guard entry.type == 2, entry.count >= 1, entry.count <= 4096 else { return nil }
        let at: Int
        if entry.count <= 4 {
            at = entry.field
        } else {
            guard let offset = integer(at: entry.field, size: 4) else { return nil }
            at = start + offset
        }
        guard at >= start, at + entry.count <= end else { return nil }
        return String(decoding: bytes[at..<(at + entry.count)].prefix { $0 != 0 }, as: UTF8.self)
    }

    /// The first value of numeric `tag` in `entries`, whatever its type.
    func first(_ tag: Int, in entries: [Entry]) -> Double? {
        entries.first { $0.tag == tag }.flatMap { number($0) }
    }

    /// The first value of `tag` in `entries`.
    func value(_ tag: Int, in entries: [Entry]) -> Int? {
        entries.first { $0.tag == tag }.flatMap { unsigned($0) }
    }
}
