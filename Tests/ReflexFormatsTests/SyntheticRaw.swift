import ReflexISP

/// A made-up raw frame with known values, and the same values packed as a sensor sends them:
/// what the DNG must give back, sample for sample.
struct SyntheticRaw {
    let width: Int
    let height: Int
    let format: RawFormat
    /// The values, row by row, `width` a row.
    let samples: [UInt16]
    /// The frame as the sensor would deliver it.
    let bytes: [UInt8]
    let layout: RawLayout

    /// A gradient across the frame, a different offset on each sample of the 2×2 tile and a
    /// small pattern, wrapped to the format's range (so both 0 and the maximum occur).
    /// `padding`: bytes of slack at the end of each row.
    init(width: Int, height: Int, format: RawFormat, padding: Int = 0) {
        let maximum = format.maximumValue
        var samples = [UInt16](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let tile = (y % 2) * 2 + x % 2
                let value = x * 7 + y * 5 + tile * (maximum / 5) + ((x / 3 + y / 2) % 4) * 11
                samples[y * width + x] = UInt16(value % (maximum + 1))
            }
        }
        self.init(width: width, height: height, format: format, samples: samples, padding: padding)
    }

    init(width: Int, height: Int, format: RawFormat, samples: [UInt16], padding: Int = 0) {
        (self.width, self.height, self.format, self.samples) = (width, height, format, samples)
        let bytesPerLine = format.packing.minimumBytesPerLine(width: width) + padding
        layout = RawLayout(width: width, height: height, bytesPerLine: bytesPerLine, format: format)
        var bytes = [UInt8](repeating: 0xA5, count: bytesPerLine * height)  // padding is never zero
        for y in 0..<height {
            let row = SyntheticRaw.pack(samples[(y * width)..<((y + 1) * width)], format.packing)
            bytes.replaceSubrange((y * bytesPerLine)..<(y * bytesPerLine + row.count), with: row)
        }
        self.bytes = bytes
    }

    /// One row in `packing`: the inverse of `RawUnpacking`, written independently of it.
    static func pack(_ row: ArraySlice<UInt16>, _ packing: RawPacking) -> [UInt8] {
        let values = Array(row)
        switch packing {
        case .bits8:
            return values.map { UInt8($0) }
        case .unpacked16:
            return values.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        case .csi2Packed10:
            return stride(from: 0, to: values.count, by: 4).flatMap { start in
                let group = (0..<4).map { start + $0 < values.count ? values[start + $0] : 0 }
                let low = group.enumerated().reduce(UInt8(0)) { $0 | UInt8($1.element & 3) << (2 * $1.offset) }
                return group.map { UInt8($0 >> 2) } + [low]
            }
        case .csi2Packed12:
            return stride(from: 0, to: values.count, by: 2).flatMap { start in
                let group = (0..<2).map { start + $0 < values.count ? values[start + $0] : 0 }
                return [UInt8(group[0] >> 4), UInt8(group[1] >> 4), UInt8(group[0] & 0xF) | UInt8(group[1] & 0xF) << 4]
            }
        }
    }
}
