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
