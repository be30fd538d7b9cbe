@testable import ReflexFormats

/// Reads the thumbnail out of a finished JPEG's EXIF (IFD1's JPEGInterchangeFormat), as a
/// viewer showing the card's previews does: the tests check our thumbnail is where they look.
enum ExifThumbnailReader {
    /// The thumbnail's JPEG bytes, or nil when the file has no EXIF thumbnail (or a damaged one).
    static func thumbnail(inJPEG bytes: [UInt8]) -> [UInt8]? {
        guard let segments = JPEGSegments.header(of: bytes) else { return nil }
        let exifHeader: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]  // "Exif\0\0"
        guard let app1 = segments.first(where: { $0.marker == 0xE1 && bytes[$0.payload].starts(with: exifHeader) })
        else { return nil }
        let tiff = Array(bytes[app1.payload].dropFirst(exifHeader.count))
        guard let (offset, length) = thumbnailPlace(in: tiff), offset + length <= tiff.count, length >= 4,
              tiff[offset] == 0xFF, tiff[offset + 1] == 0xD8 else { return nil }
        return Array(tiff[offset..<(offset + length)])
    }

    /// IFD1's JPEGInterchangeFormat (0x0201) and JPEGInterchangeFormatLength (0x0202).
    private static func thumbnailPlace(in tiff: [UInt8]) -> (offset: Int, length: Int)? {
        guard tiff.count >= 8 else { return nil }
        let bigEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): bigEndian = false
        case (0x4D, 0x4D): bigEndian = true
        default: return nil
        }
        func read(_ offset: Int, _ size: Int) -> Int? {
            guard offset >= 0, offset + size <= tiff.count else { return nil }
            let bytes = tiff[offset..<(offset + size)]
            return (bigEndian ? Array(bytes) : bytes.reversed()).reduce(0) { $0 << 8 | Int($1) }
        }
        guard read(2, 2) == 42, let ifd0 = read(4, 4), let count0 = read(ifd0, 2),
              let ifd1 = read(ifd0 + 2 + 12 * count0, 4), ifd1 != 0, let count1 = read(ifd1, 2) else { return nil }
        var (offset, length): (Int?, Int?) = (nil, nil)
        for index in 0..<count1 {
            let entry = ifd1 + 2 + 12 * index
            // A LONG, or (as some writers do) a SHORT, in the entry's value field.
            let value = read(entry + 2, 2) == 3 ? read(entry + 8, 2) : read(entry + 8, 4)
            switch read(entry, 2) {
            case 0x0201: offset = value
            case 0x0202: length = value
            default: break
            }
        }
        guard let offset, let length else { return nil }
        return (offset, length)
    }
}
