/// Small corrections to a little-endian classic TIFF that libtiff has finished, made in place
/// (no size changes, so no offset moves): where libtiff's choice of type or value differs from
/// what readers expect. Every read is bounds-checked: a surprise is an error, not a crash.
struct TIFFEntryEditor {
    private(set) var bytes: [UInt8]

    /// TIFF field types.
    static let long: UInt16 = 4, rational: UInt16 = 5, signedRational: UInt16 = 10

    init(_ bytes: [UInt8]) throws(PhotoEncodingError) {
        self.bytes = bytes
        guard bytes.count >= 8, bytes[0] == 0x49, bytes[1] == 0x49, try u16(at: 2) == 42 else {
            throw PhotoEncodingError("not a little-endian TIFF")
        }
    }

    /// The offset of IFD0.
    var firstDirectory: Int {
        get throws(PhotoEncodingError) { try u32(at: 4) }
    }

    /// The offset of `tag`'s 12-byte entry in the directory at `directory`.
    func entry(_ tag: UInt16, inDirectoryAt directory: Int) throws(PhotoEncodingError) -> Int {
        let count = try u16(at: directory)
        for index in 0..<count {
            let entry = directory + 2 + 12 * index
            if try u16(at: entry) == tag { return entry }
        }
        throw PhotoEncodingError("TIFF tag \(tag) is missing from the directory at \(directory)")
    }

    /// The value of a tag holding one LONG (or IFD) value, such as a directory's offset.
    func value(of tag: UInt16, inDirectoryAt directory: Int) throws(PhotoEncodingError) -> Int {
        let entry = try entry(tag, inDirectoryAt: directory)
        guard try u32(at: entry + 4) == 1 else { throw PhotoEncodingError("TIFF tag \(tag) holds more than one value") }
        return try u32(at: entry + 8)
    }

    mutating func setType(_ type: UInt16, of tag: UInt16, inDirectoryAt directory: Int) throws(PhotoEncodingError) {
        try put16(type, at: try entry(tag, inDirectoryAt: directory) + 2)
    }

    /// Replaces a single (S)RATIONAL's value; its 8 bytes sit where the entry points.
    mutating func setRational(_ fraction: ExifFraction, of tag: UInt16,
                              inDirectoryAt directory: Int) throws(PhotoEncodingError) {
        try setRationals([fraction], of: tag, inDirectoryAt: directory)
    }

    /// Replaces an (S)RATIONAL array's values (as many as it has), where the entry points.
    mutating func setRationals(_ fractions: [ExifFraction], of tag: UInt16,
                               inDirectoryAt directory: Int) throws(PhotoEncodingError) {
        let entry = try entry(tag, inDirectoryAt: directory)
        let type = try u16(at: entry + 2)
        guard type == Self.rational || type == Self.signedRational, try u32(at: entry + 4) == fractions.count else {
            throw PhotoEncodingError("TIFF tag \(tag) is not \(fractions.count) rational(s)")
        }
        let values = try u32(at: entry + 8)
        for (index, fraction) in fractions.enumerated() {
            try put32(UInt32(truncatingIfNeeded: fraction.numerator), at: values + 8 * index)
            try put32(UInt32(truncatingIfNeeded: fraction.denominator), at: values + 8 * index + 4)
        }
    }

    private func u16(at offset: Int) throws(PhotoEncodingError) -> Int {
        guard offset >= 0, offset + 2 <= bytes.count else { throw outside(offset) }
        return Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
    }

    private func u32(at offset: Int) throws(PhotoEncodingError) -> Int {
        guard offset >= 0, offset + 4 <= bytes.count else { throw outside(offset) }
        return (0..<4).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
    }

    private mutating func put16(_ value: UInt16, at offset: Int) throws(PhotoEncodingError) {
        guard offset >= 0, offset + 2 <= bytes.count else { throw outside(offset) }
        bytes[offset] = UInt8(value & 0xFF)
        bytes[offset + 1] = UInt8(value >> 8)
    }

    private mutating func put32(_ value: UInt32, at offset: Int) throws(PhotoEncodingError) {
        guard offset >= 0, offset + 4 <= bytes.count else { throw outside(offset) }
        for byte in 0..<4 { bytes[offset + byte] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(byte))) }
    }

    private func outside(_ offset: Int) -> PhotoEncodingError {
        PhotoEncodingError("TIFF offset \(offset) is outside the file (\(bytes.count) bytes)")
    }
}
