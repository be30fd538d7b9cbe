/// What review's overlay says of a photo, from its own EXIF (any camera's): when it was taken,
/// the shutter, aperture, ISO and exposure compensation, and whether it carries a location.
/// A tag missing or damaged is nil, and the overlay leaves it out.
public struct ReviewPhotoInfo: Sendable, Equatable {
    /// DateTimeOriginal as written ("2024:05:06 07:08:09").
    public var taken: String?
    public var exposureSeconds: Double?
    public var fNumber: Double?
    public var iso: Int?
    public var exposureBias: Double?
    /// A GPS directory with a latitude.
    public var hasLocation = false

    public init() {}

    /// From a JPEG's EXIF (the first 64 KB of the file are enough).
    public static func ofJPEG(_ bytes: [UInt8]) -> ReviewPhotoInfo? {
        TIFFReader.exif(inJPEG: bytes).flatMap(read)
    }

    /// From a DNG (or any TIFF-based raw) whose tags are in its first directory's Exif
    /// directory.
    public static func ofDNG(_ bytes: [UInt8]) -> ReviewPhotoInfo? {
        TIFFReader(bytes).flatMap(read)
    }

    private static func read(_ tiff: TIFFReader) -> ReviewPhotoInfo? {
        guard let first = tiff.firstDirectory, let ifd0 = tiff.directory(at: first) else { return nil }
        var info = ReviewPhotoInfo()
        if let offset = tiff.value(0x8769, in: ifd0.entries), let exif = tiff.directory(at: offset) {
            func entry(_ tag: Int) -> TIFFReader.Entry? { exif.entries.first { $0.tag == tag } }
            info.taken = entry(0x9003).flatMap(tiff.text)
            info.exposureSeconds = entry(0x829A).flatMap(tiff.rational)
            info.fNumber = entry(0x829D).flatMap(tiff.rational)
            info.iso = tiff.value(0x8827, in: exif.entries)
            info.exposureBias = entry(0x9204).flatMap(tiff.rational)
        }
        if let offset = tiff.value(0x8825, in: ifd0.entries), let gps = tiff.directory(at: offset) {
            info.hasLocation = gps.entries.contains { $0.tag == 0x0002 }
        }
        return info
    }
}
