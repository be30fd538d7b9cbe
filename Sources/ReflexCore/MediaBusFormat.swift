/// A pad's format on a media bus (VIDIOC_SUBDEV_G_FMT's code and size), named as media-ctl
/// names the codes a camera's pipeline carries (linux/media-bus-format.h).
public struct MediaBusFormat: Sendable, Equatable, CustomStringConvertible {
    public let code: UInt32
    public let width: Int
    public let height: Int

    public init(code: UInt32, width: Int, height: Int) {
        (self.code, self.width, self.height) = (code, width, height)
    }

    static let names: [UInt32: String] = [
        0x3001: "SBGGR8_1X8", 0x3013: "SGBRG8_1X8", 0x3002: "SGRBG8_1X8", 0x3014: "SRGGB8_1X8",
        0x3007: "SBGGR10_1X10", 0x300E: "SGBRG10_1X10", 0x300A: "SGRBG10_1X10", 0x300F: "SRGGB10_1X10",
        0x3008: "SBGGR12_1X12", 0x3010: "SGBRG12_1X12", 0x3011: "SGRBG12_1X12", 0x3012: "SRGGB12_1X12",
        0x301D: "SBGGR16_1X16", 0x3020: "SRGGB16_1X16", 0x100A: "RGB888_1X24", 0x2008: "YUYV8_2X8",
    ]

    public var codeName: String { MediaBusFormat.names[code] ?? MediaGraph.hex(code) }

    /// "SRGGB10_1X10/640x480", as media-ctl writes a pad's format.
    public var description: String { "\(codeName)/\(width)x\(height)" }
}
