/// Reads samples out of a row of raw bytes, whatever the packing, as UInt16 values.
public enum RawUnpacking {
    /// Unpacks `count` samples starting at sample `first` (a multiple of the packing's group
    /// size) of the row at `row` into `output`.
    @inlinable
    public static func unpack(row: UnsafeRawPointer, packing: RawPacking, first: Int, count: Int,
                              into output: UnsafeMutablePointer<UInt16>) {
        precondition(first % packing.samplesPerGroup == 0, "a crop starts on a packing group")
        let bytes = row.assumingMemoryBound(to: UInt8.self)
        switch packing {
        case .bits8:
            let source = bytes + first
            for i in 0..<count { output[i] = UInt16(source[i]) }
        case .unpacked16:
            let source = bytes + first * 2
            for i in 0..<count {
                output[i] = UInt16(source[2 * i]) | UInt16(source[2 * i + 1]) << 8
            }
        case .csi2Packed10:
            var source = bytes + first / 4 * 5
            var i = 0
            // Two groups (eight samples) a step in SIMD: the eight high bytes widened and
            // shifted, the low bits of each group spread by a table, one OR.
            let spread = lowBitsSpread
            while i &+ 8 <= count {
                let highs = UnsafeRawPointer(source).loadUnaligned(as: SIMD4<UInt8>.self)
                let nextHighs = UnsafeRawPointer(source + 5).loadUnaligned(as: SIMD4<UInt8>.self)
                let high = SIMD8<UInt16>(UInt16(highs[0]), UInt16(highs[1]), UInt16(highs[2]), UInt16(highs[3]),
                                         UInt16(nextHighs[0]), UInt16(nextHighs[1]), UInt16(nextHighs[2]),
                                         UInt16(nextHighs[3]))
                let low = SIMD8<UInt16>(lowHalf: spread[Int(source[4])], highHalf: spread[Int(source[9])])
                UnsafeMutableRawPointer(output + i).storeBytes(of: (high &<< 2) | low, as: SIMD8<UInt16>.self)
                source += 10
                i &+= 8
            }
            while i + 4 <= count {
                let low = UInt16(source[4])
                output[i] = UInt16(source[0]) << 2 | (low & 0x3)
                output[i + 1] = UInt16(source[1]) << 2 | (low >> 2 & 0x3)
                output[i + 2] = UInt16(source[2]) << 2 | (low >> 4 & 0x3)
                output[i + 3] = UInt16(source[3]) << 2 | (low >> 6 & 0x3)
                source += 5
                i += 4
            }
            var lane = 0
            while i < count {
                output[i] = UInt16(source[lane]) << 2 | (UInt16(source[4]) >> (2 * lane) & 0x3)
                lane += 1
                i += 1
            }
        case .csi2Packed12:
            var source = bytes + first / 2 * 3
            var i = 0
            while i + 2 <= count {
                let low = UInt16(source[2])
                output[i] = UInt16(source[0]) << 4 | (low & 0xF)
                output[i + 1] = UInt16(source[1]) << 4 | (low >> 4)
                source += 3
                i += 2
            }
            if i < count { output[i] = UInt16(source[0]) << 4 | (UInt16(source[2]) & 0xF) }
        }
    }

    /// A RAW10 group's byte of low bits → the four samples' low bits, each in its own lane.
    /// (Written once, when first used, and only read after: safe to share.)
    @usableFromInline
    nonisolated(unsafe) static let lowBitsSpread: UnsafePointer<SIMD4<UInt16>> = {
        let table = UnsafeMutablePointer<SIMD4<UInt16>>.allocate(capacity: 256)
        for byte in 0..<256 {
            let b = UInt16(byte)
            table[byte] = SIMD4(b & 3, b >> 2 & 3, b >> 4 & 3, b >> 6)
        }
        return UnsafePointer(table)
    }()

    /// Sample `index` of the row at `row` alone, for reading a few samples of a row (the
    /// statistics' grid) without unpacking all of it.
    @inlinable @inline(__always)
    public static func sample(_ row: UnsafeRawPointer, packing: RawPacking, at index: Int) -> UInt16 {
        let bytes = row.assumingMemoryBound(to: UInt8.self)
        switch packing {
        case .bits8:
            return UInt16(bytes[index])
        case .unpacked16:
            return UInt16(bytes[2 &* index]) | UInt16(bytes[2 &* index &+ 1]) &<< 8
        case .csi2Packed10:
            let group = index / 4 &* 5, lane = index % 4
            return UInt16(bytes[group &+ lane]) &<< 2 | UInt16(bytes[group &+ 4]) &>> UInt16(2 &* lane) & 3
        case .csi2Packed12:
            let group = index / 2 &* 3, lane = index % 2
            return UInt16(bytes[group &+ lane]) &<< 4 | UInt16(bytes[group &+ 2]) &>> UInt16(4 &* lane) & 0xF
        }
    }
}
