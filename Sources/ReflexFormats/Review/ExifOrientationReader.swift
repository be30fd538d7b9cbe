/// The Orientation tag (0x0112) of a JPEG's EXIF, read straight from its bytes (APP1 "Exif",
/// its TIFF header, IFD0's entries), every offset checked against the file's length: a
/// camera's file or another's, and a damaged one gives nil rather than a wrong turn.
public enum ExifOrientationReader {
    public static func orientation(ofJPEG bytes: [UInt8]) -> PhotoOrientation? {
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var at = 2
        // The markers before the picture's data, one after another.
        while at + 4 <= bytes.count, bytes[at] == 0xFF {
            let marker = bytes[at + 1], length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            guard marker != 0xDA, length >= 2, at + 2 + length <= bytes.count else { return nil }
            let body = (at + 4)..<(at + 2 + length)
            if marker == 0xE1, body.count > 14, Array(bytes[body.lowerBound..<(body.lowerBound + 6)]) == Array("Exif\0\0".utf8) {
                return tiffOrientation(bytes, tiff: body.lowerBound + 6, end: body.upperBound)
            }
            at = body.upperBound
        }
        return nil
    }

    /// IFD0's Orientation in the TIFF at `tiff`..<`end`.
    private static func tiffOrientation(_ bytes: [UInt8], tiff: Int, end: Int) -> PhotoOrientation? {
        guard end - tiff >= 8 else { return nil }
        let little: Bool
        switch (bytes[tiff], bytes[tiff + 1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func read(_ offset: Int, _ size: Int) -> Int? {
            guard offset >= tiff, offset + size <= end else { return nil }
            return (0..<size).reduce(0) { value, index in
                let byte = Int(bytes[offset + (little ? size - 1 - index : index)])
                return value << 8 | byte
            }
        }
        guard read(tiff + 2, 2) == 42, let ifd = read(tiff + 4, 4), let count = read(tiff + ifd, 2) else { return nil }
        for entry in 0..<min(count, 512) {
            let at = tiff + ifd + 2 + entry * 12
            guard let tag = read(at, 2) else { return nil }
            // (SHORT, one value: in the first two bytes of the value field.)
            if tag == 0x0112, read(at + 2, 2) == 3, let value = read(at + 8, 2) { return PhotoOrientation(rawValue: UInt16(value)) }
        }
        return nil
    }
}
