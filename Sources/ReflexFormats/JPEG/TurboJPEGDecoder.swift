import CTurboJPEG

/// A JPEG decoded to RGB (3 bytes a pixel, rows `width * 3` apart) by TurboJPEG: a labelled
/// test frame for `reflex bench track`, a photo read back by the tests, a file's EXIF thumbnail
/// for review's index.
public struct TurboJPEGDecoder: Sendable {
    public let width: Int
    public let height: Int
    public let rgb: [UInt8]

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// `maximumPixels`: a header claiming more is refused before anything is allocated (a
    /// damaged or hostile file's thumbnail).
    public init(_ jpeg: [UInt8], maximumPixels: Int = .max) throws(Failure) {
        guard let handle = tjInitDecompress() else { throw Failure(description: "cannot start TurboJPEG") }
        defer { tjDestroy(handle) }
        var (width, height, subsampling, colourspace): (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
        let size = UInt(jpeg.count)
        guard tjDecompressHeader3(handle, jpeg, size, &width, &height, &subsampling, &colourspace) == 0 else {
            throw Failure(description: "not a JPEG: " + String(cString: tjGetErrorStr2(handle)))
        }
        guard width > 0, height > 0, Int(width) * Int(height) <= maximumPixels else {
            throw Failure(description: "a JPEG of \(width)x\(height), more than \(maximumPixels) pixels")
        }
        var rgb = [UInt8](repeating: 0, count: Int(width) * Int(height) * 3)
        guard tjDecompress2(handle, jpeg, size, &rgb, width, 0, height, Int32(TJPF_RGB.rawValue), 0) == 0 else {
            throw Failure(description: "TurboJPEG cannot decode it: " + String(cString: tjGetErrorStr2(handle)))
        }
        (self.width, self.height, self.rgb) = (Int(width), Int(height), rgb)
    }
}
