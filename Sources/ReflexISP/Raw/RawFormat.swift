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
