import ReflexFormats

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
        do {
            let decoded = try TurboJPEGDecoder(jpeg)
            (width, height, rgb) = (decoded.width, decoded.height, decoded.rgb)
        } catch {
            throw Failure(description: error.description)
        }
    }

    /// The mean of one channel over a rectangle.
    public func mean(channel: Int, x: Range<Int>, y: Range<Int>) -> Double {
        var sum = 0
        for row in y { for column in x { sum += Int(rgb[(row * width + column) * 3 + channel]) } }
        return Double(sum) / Double(x.count * y.count)
    }
}
