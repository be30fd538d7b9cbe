/// The marker segments at the head of a JPEG, up to its first scan: where each one is, found
/// by walking their lengths (no pixel data is read).
enum JPEGSegments {
    struct Segment {
        let marker: UInt8
        /// From the 0xFF of the marker to the end of the segment.
        let range: Range<Int>
        /// The payload, after the marker and its two length bytes.
        var payload: Range<Int> { (range.lowerBound + 4)..<range.upperBound }
    }

    /// The segments between SOI and SOS (or EOI), or nil when the bytes are not a JPEG or a
    /// length runs past the end.
    static func header(of bytes: [UInt8]) -> [Segment]? {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var segments: [Segment] = []
        var offset = 2
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            if marker == 0xFF { offset += 1; continue }  // fill byte
            if marker == 0xD9 { break }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2, offset + 2 + length <= bytes.count else { return nil }
            segments.append(Segment(marker: marker, range: offset..<(offset + 2 + length)))
            if marker == 0xDA { break }
            offset += 2 + length
        }
        return segments
    }

    /// `jpeg` with its leading application segments (TurboJPEG's JFIF APP0) replaced by
    /// `segments` (an Exif APP1, or nothing for an EXIF thumbnail, which has no APPn): an
    /// Exif file starts with its APP1, right after SOI, and Exif and JFIF cannot both be first.
    static func replacingApplicationSegments(of jpeg: [UInt8],
                                             with segments: [UInt8]) throws(PhotoEncodingError) -> [UInt8] {
        guard let header = header(of: jpeg) else { throw PhotoEncodingError("TurboJPEG wrote no JPEG header") }
        let rest = header.first { !(0xE0...0xEF).contains($0.marker) }?.range.lowerBound ?? 2
        var file: [UInt8] = []
        file.reserveCapacity(2 + segments.count + jpeg.count - rest)
        file += jpeg[0..<2]  // SOI
        file += segments
        file += jpeg[rest...]
        return file
    }

    /// An APP1 segment around `body`; its length field is 16 bits, so the body must stay
    /// below 64 KB.
    static func app1(_ body: [UInt8]) throws(PhotoEncodingError) -> [UInt8] {
        let length = body.count + 2
        guard length <= 0xFFFF else {
            throw PhotoEncodingError("the EXIF block is \(body.count) bytes: an APP1 segment holds at most 65533")
        }
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + body
    }
}
