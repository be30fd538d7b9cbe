/// How a sensor's embedded-data lines are packed on the CSI-2 link. A sensor sends them with
/// the image's bit depth, so the byte stream has the same padding bytes a packed RAW line has
/// (the RAW10 and RAW12 low-bit bytes); in embedded data those bytes carry no register and
/// hold 0x55. (Kernel: V4L2_META_FMT_GENERIC_CSI2_10/12/14; Raspberry Pi's parser follows
/// the mode's bit depth the same way.)
public enum EmbeddedDataPacking: Sendable, Equatable, CustomStringConvertible {
    /// Every byte is data (8-bit modes, and a receiver that unpacked the line).
    case eightBit
    /// 4 data bytes, then 1 padding byte.
    case raw10
    /// 2 data bytes, then 1 padding byte.
    case raw12
    /// 4 data bytes, then 3 padding bytes.
    case raw14

    /// The packing a mode of `bitsPerSample` sends its embedded data with; 16 and other
    /// depths a receiver delivers unpacked.
    public init(bitsPerSample: Int) {
        switch bitsPerSample {
        case 10: self = .raw10
        case 12: self = .raw12
        case 14: self = .raw14
        default: self = .eightBit
        }
    }

    /// Whether the byte at `offset` from a line's start is padding.
    @inline(__always)
    public func isPadding(atLineOffset offset: Int) -> Bool {
        switch self {
        case .eightBit: false
        case .raw10: offset % 5 == 4
        case .raw12: offset % 3 == 2
        case .raw14: offset % 7 >= 4
        }
    }

    public var description: String {
        switch self {
        case .eightBit: "8-bit"
        case .raw10: "RAW10-packed"
        case .raw12: "RAW12-packed"
        case .raw14: "RAW14-packed"
        }
    }
}
