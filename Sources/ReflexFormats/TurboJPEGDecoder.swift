import CTurboJPEG

/// A JPEG decoded to RGB (3 bytes a pixel, rows `width * 3` apart) by TurboJPEG: a labelled
/// test frame for `reflex bench track`, a photo read back by the tests.
public struct TurboJPEGDecoder: Sendable {
    public let width: Int
    public let height: Int
    public let rgb: [UInt8]

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public init(_ jpeg: [UInt8]) throws(Failure) {
        guard let handle = tjInitDecompress() else { throw Failure(description: "cannot start TurboJPEG") }
        defer { tjDestroy(handle) }
        var (width, height, subsampling, colourspace): (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
        let size = UInt(jpeg.count)
        guard tjDecompressHeader3(handle, jpeg, size, &width, &height, &subsampling, &colourspace) == 0 else {
            throw Failure(description: "not a JPEG: " + String(cString: tjGetErrorStr2(handle)))
        }
        var rgb = [UInt8](repeating: 0, count: Int(width) * Int(height) * 3)
        guard tjDecompress2(handle, jpeg, size, &rgb, width, 0, height, Int32(TJPF_RGB.rawValue), 0) == 0 else {
            throw Failure(description: "TurboJPEG cannot decode it: " + String(cString: tjGetErrorStr2(handle)))
        }
        (self.width, self.height, self.rgb) = (Int(width), Int(height), rgb)
    }
}
