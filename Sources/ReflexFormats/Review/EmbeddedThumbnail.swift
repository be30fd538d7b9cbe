/// The small picture a file carries for an index (review's grid), read without decoding the
/// file: a JPEG's EXIF thumbnail (IFD1's JPEGInterchangeFormat, 160×120 in ours), a DNG's
/// first directory's preview (8-bit RGB strips, 256×192 in ours). Nil where there is none.
public struct EmbeddedThumbnail: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// RGB, rows `width * 3` apart.
    public let rgb: [UInt8]

    /// A JPEG's EXIF thumbnail, decoded (only the file's first segments are read: its EXIF
    /// comes before the picture, and a prefix of the file is enough).
    public static func ofJPEG(_ bytes: [UInt8]) -> EmbeddedThumbnail? {
        exifThumbnailJPEG(bytes).flatMap(decode)
    }

    /// A JPEG's EXIF thumbnail as the file holds it (a small JPEG of its own), not decoded:
    /// what PTP's GetThumb hands a computer.
    public static func exifThumbnailJPEG(_ bytes: [UInt8]) -> [UInt8]? {
        guard let exif = TIFFReader.exif(inJPEG: bytes), let first = exif.firstDirectory,
              let ifd0 = exif.directory(at: first), ifd0.next > 0, let ifd1 = exif.directory(at: ifd0.next),
              let offset = exif.value(0x0201, in: ifd1.entries), let length = exif.value(0x0202, in: ifd1.entries),
              length > 4, exif.start + offset + length <= exif.end else { return nil }
        return Array(bytes[(exif.start + offset)..<(exif.start + offset + length)])
    }

    /// As a JPEG, for a page to show (the remote's index); nil if TurboJPEG fails.
    public func jpeg(quality: Int = 85) -> [UInt8]? {
        guard let compressor = try? TurboJPEGCompressor() else { return nil }
        return rgb.withUnsafeBufferPointer { pixels in
            try? compressor.compress(RGBImage(pixels: pixels.baseAddress!, width: width, height: height), quality: quality)
        }
    }

    /// A DNG's preview in its first directory (NewSubfileType 1, uncompressed 8-bit RGB).
    public static func ofDNG(_ bytes: [UInt8]) -> EmbeddedThumbnail? {
        guard let tiff = TIFFReader(bytes), let first = tiff.firstDirectory, let ifd0 = tiff.directory(at: first) else { return nil }
        let entries = ifd0.entries
        guard tiff.value(0x00FE, in: entries) == 1, tiff.value(0x0103, in: entries) == 1, tiff.value(0x0106, in: entries) == 2,
              tiff.value(0x0115, in: entries) == 3, tiff.value(0x0102, in: entries) == 8,
              let width = tiff.value(0x0100, in: entries), let height = tiff.value(0x0101, in: entries),
              (1...65535).contains(width), (1...65535).contains(height), width * height <= 4_000_000,
              let offsets = entries.first(where: { $0.tag == 0x0111 }), let counts = entries.first(where: { $0.tag == 0x0117 }),
              offsets.count == counts.count, offsets.count <= 4096 else { return nil }
        var rgb: [UInt8] = []
        rgb.reserveCapacity(width * height * 3)
        for strip in 0..<offsets.count {
            guard let offset = tiff.unsigned(offsets, index: strip), let count = tiff.unsigned(counts, index: strip),
                  offset + count <= bytes.count else { return nil }
            rgb += bytes[offset..<(offset + min(count, width * height * 3 - rgb.count))]
        }
        guard rgb.count == width * height * 3 else { return nil }
        return EmbeddedThumbnail(width: width, height: height, rgb: rgb)
    }

    private static func decode(_ jpeg: [UInt8]) -> EmbeddedThumbnail? {
        guard let decoded = try? TurboJPEGDecoder(jpeg, maximumPixels: 1_000_000) else { return nil }
        return EmbeddedThumbnail(width: decoded.width, height: decoded.height, rgb: decoded.rgb)
    }
}
