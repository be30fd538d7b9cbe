/// The Orientation tag (0x0112) of a JPEG's EXIF, read straight from its bytes
/// (`TIFFReader.exif`): a camera's file or another's, and a damaged one gives nil rather than
/// a wrong turn.
public enum ExifOrientationReader {
    public static func orientation(ofJPEG bytes: [UInt8]) -> PhotoOrientation? {
        guard let exif = TIFFReader.exif(inJPEG: bytes), let first = exif.firstDirectory,
              let ifd0 = exif.directory(at: first), let value = exif.value(0x0112, in: ifd0.entries) else { return nil }
        return UInt16(exactly: value).flatMap(PhotoOrientation.init(rawValue:))
    }
}
