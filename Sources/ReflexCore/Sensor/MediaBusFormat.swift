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
        0x301D: "SBGGR16_1X16", 0x301E: "SGBRG16_1X16", 0x301F: "SGRBG16_1X16", 0x3020: "SRGGB16_1X16",
        0x100A: "RGB888_1X24", 0x2008: "YUYV8_2X8", 0x2011: "YUYV8_1X16", 0x2006: "UYVY8_2X8", 0x200F: "UYVY8_1X16",
    ]

    /// The pixel formats a capture node may store a bus code in, by their four characters
    /// (a 10- or 12-bit Bayer code unpacked in 16 bits, or as CSI-2 packs it), for nodes
    /// that cannot say themselves (no V4L2_CAP_IO_MC).
    static let pixelFormats: [UInt32: [String]] = [
        0x3001: ["BA81"], 0x3013: ["GBRG"], 0x3002: ["GRBG"], 0x3014: ["RGGB"],
        0x3007: ["BG10", "pBAA"], 0x300E: ["GB10", "pGAA"], 0x300A: ["BA10", "pgAA"], 0x300F: ["RG10", "pRAA"],
        0x3008: ["BG12", "pBCC"], 0x3010: ["GB12", "pGCC"], 0x3011: ["BA12", "pgCC"], 0x3012: ["RG12", "pRCC"],
        0x301D: ["BYR2"], 0x301E: ["GB16"], 0x301F: ["GR16"], 0x3020: ["RG16"],
        0x100A: ["RGB3"], 0x2008: ["YUYV"], 0x2011: ["YUYV"], 0x2006: ["UYVY"], 0x200F: ["UYVY"],
    ]

    /// The V4L2 pixel formats (fourcc codes) that can hold `code`'s samples.
    public static func pixelFormats(forCode code: UInt32) -> [UInt32] {
        (pixelFormats[code] ?? []).map { characters in
            characters.utf8.reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        }
    }

    /// A raw Bayer code (MEDIA_BUS_FMT_S*): what a debayer takes in.
    public var isBayer: Bool { MediaBusFormat.isBayer(code) }
    public static func isBayer(_ code: UInt32) -> Bool { (0x3001...0x3fff).contains(code) }

    public var codeName: String { MediaBusFormat.names[code] ?? MediaGraph.hex(code) }

    /// "SRGGB10_1X10/640x480", as media-ctl writes a pad's format.
    public var description: String { "\(codeName)/\(width)x\(height)" }
}
