/// Where red sits in the sensor's 2×2 colour filter tile, named by the tile's first row
/// then second row (RGGB = R G / G B).
public enum CFAPattern: String, Sendable, CaseIterable {
    case rggb, grbg, gbrg, bggr

    /// The column and row of red and blue inside the 2×2 tile; green fills the other two.
    public var redPosition: (x: Int, y: Int) {
        switch self {
        case .rggb: (0, 0)
        case .grbg: (1, 0)
        case .gbrg: (0, 1)
        case .bggr: (1, 1)
        }
    }

    public var bluePosition: (x: Int, y: Int) { (1 - redPosition.x, 1 - redPosition.y) }
}

/// How samples sit in memory.
public enum RawPacking: Sendable, Equatable {
    /// One byte a sample.
    case bits8
    /// Two bytes a sample, little-endian, value in the low bits (V4L2's SRGGB10/12/16).
    case unpacked16
    /// MIPI CSI-2 RAW10: 4 samples in 5 bytes (4 high bytes, then the 2 low bits of each).
    case csi2Packed10
    /// MIPI CSI-2 RAW12: 2 samples in 3 bytes (2 high bytes, then the 4 low bits of each).
    case csi2Packed12

    /// Samples that share bytes; a crop must start on a multiple of this.
    public var samplesPerGroup: Int {
        switch self {
        case .bits8, .unpacked16: 1
        case .csi2Packed10: 4
        case .csi2Packed12: 2
        }
    }

    /// The bits a sample can have in this packing.
    public var sampleBits: Int {
        switch self {
        case .bits8: 8
        case .unpacked16: 16
        case .csi2Packed10: 10
        case .csi2Packed12: 12
        }
    }

    /// Bytes of one group of `samplesPerGroup` samples.
    public var bytesPerGroup: Int {
        switch self {
        case .bits8: 1
        case .unpacked16: 2
        case .csi2Packed10: 5
        case .csi2Packed12: 3
        }
    }

    /// Bytes a row of `width` samples needs without padding.
    public func minimumBytesPerLine(width: Int) -> Int {
        (width + samplesPerGroup - 1) / samplesPerGroup * bytesPerGroup
    }
}

/// A raw Bayer format: colour order, significant bits and packing.
public struct RawFormat: Sendable, Equatable, CustomStringConvertible {
    public let cfa: CFAPattern
    public let bitsPerSample: Int
    public let packing: RawPacking

    public init(cfa: CFAPattern, bitsPerSample: Int, packing: RawPacking) {
        precondition((8...16).contains(bitsPerSample), "raw samples are 8 to 16 bits")
        self.cfa = cfa
        self.bitsPerSample = bitsPerSample
        self.packing = packing
    }

    /// The largest value a sample can hold.
    public var maximumValue: Int { (1 << bitsPerSample) - 1 }

    public var description: String {
        let packed = packing == .csi2Packed10 || packing == .csi2Packed12
        return "\(cfa.rawValue.uppercased()) \(bitsPerSample)-bit" + (packed ? " CSI-2 packed" : "")
    }

    /// The V4L2 Bayer formats, by their four characters (e.g. "pRAA" = RGGB RAW10 packed).
    public init?(v4l2FourCC code: UInt32) {
        var characters = ""
        for shift in stride(from: 0, to: 32, by: 8) {
            characters.append(Character(Unicode.Scalar(UInt8((code >> UInt32(shift)) & 0xff))))
        }
        guard let format = RawFormat.byFourCC[characters] else { return nil }
        self = format
    }

    private static let byFourCC: [String: RawFormat] = {
        var table: [String: RawFormat] = [:]
        let orders: [(CFAPattern, eight: String, ten: String, twelve: String, sixteen: String, p10: String, p12: String)] = [
            (.rggb, "RGGB", "RG10", "RG12", "RG16", "pRAA", "pRCC"),
            (.grbg, "GRBG", "BA10", "BA12", "GR16", "pgAA", "pgCC"),
            (.gbrg, "GBRG", "GB10", "GB12", "GB16", "pGAA", "pGCC"),
            (.bggr, "BA81", "BG10", "BG12", "BYR2", "pBAA", "pBCC"),
        ]
        for order in orders {
            table[order.eight] = RawFormat(cfa: order.0, bitsPerSample: 8, packing: .bits8)
            table[order.ten] = RawFormat(cfa: order.0, bitsPerSample: 10, packing: .unpacked16)
            table[order.twelve] = RawFormat(cfa: order.0, bitsPerSample: 12, packing: .unpacked16)
            table[order.sixteen] = RawFormat(cfa: order.0, bitsPerSample: 16, packing: .unpacked16)
            table[order.p10] = RawFormat(cfa: order.0, bitsPerSample: 10, packing: .csi2Packed10)
            table[order.p12] = RawFormat(cfa: order.0, bitsPerSample: 12, packing: .csi2Packed12)
        }
        return table
    }()
}

/// Where a raw frame's pixels are: size, row pitch and format.
public struct RawLayout: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let bytesPerLine: Int
    public let format: RawFormat

    public init(width: Int, height: Int, bytesPerLine: Int? = nil, format: RawFormat) {
        self.width = width
        self.height = height
        self.bytesPerLine = bytesPerLine ?? format.packing.minimumBytesPerLine(width: width)
        self.format = format
        precondition(self.bytesPerLine >= format.packing.minimumBytesPerLine(width: width), "rows overlap")
    }

    public var byteCount: Int { bytesPerLine * height }
}
