import CTurboJPEG

/// A JPEG decoded to RGB by TurboJPEG: the reference the encoder's output is compared with,
/// a photo read back, a committed test picture.
public struct DecodedJPEG: Sendable {
    public let width: Int
    public let height: Int
    /// 3 bytes a pixel, rows `width * 3` bytes apart.
    public let rgb: [UInt8]

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public init(_ jpeg: [UInt8]) throws {
        guard let handle = tjInitDecompress() else { throw Failure(description: "cannot start TurboJPEG") }
        defer { tjDestroy(handle) }
        var (width, height, subsampling, colorspace): (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
        let size = UInt(jpeg.count)
        guard tjDecompressHeader3(handle, jpeg, size, &width, &height, &subsampling, &colorspace) == 0 else {
            throw Failure(description: "not a JPEG: " + String(cString: tjGetErrorStr2(handle)))
        }
        var rgb = [UInt8](repeating: 0, count: Int(width * height * 3))
        guard tjDecompress2(handle, jpeg, size, &rgb, width, 0, height, Int32(TJPF_RGB.rawValue), 0) == 0 else {
            throw Failure(description: "TurboJPEG cannot decode it: " + String(cString: tjGetErrorStr2(handle)))
        }
        (self.width, self.height, self.rgb) = (Int(width), Int(height), rgb)
    }

    /// The mean of one channel over a rectangle.
    public func mean(channel: Int, x: Range<Int>, y: Range<Int>) -> Double {
        var sum = 0
        for row in y { for column in x { sum += Int(rgb[(row * width + column) * 3 + channel]) } }
        return Double(sum) / Double(x.count * y.count)
    }
}
