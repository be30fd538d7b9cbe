/// ITU T.81's lossless JPEG (process 14, SOF3), the compression DNG calls 7: how a raw tile
/// is stored exactly in half to two thirds of its bytes. A row of a colour filter array
/// alternates two colours, so a tile of even width is coded as two components half as wide,
/// interleaved sample by sample (Adobe's own layout, which LibRaw, dcraw and every editor
/// read): each sample is predicted from the one of its own colour two places left (predictor
/// 1), and only the difference is coded, with a Huffman table made for this tile's
/// differences. (Debian 12's libjpeg-turbo 2.1 does not write lossless JPEG: this is ours.)
public enum LosslessJPEGEncoder {
    /// The predictor T.81 numbers 1: the sample to the left (of the same component).
    static let predictor: UInt8 = 1

    /// A `width` × `height` tile of samples, rows `rowStride` samples apart, as a whole JPEG
    /// (SOI to EOI). Only the first `filledWidth` × `filledHeight` samples are read; the rest
    /// of the tile repeats the last column and row (a tile past the image's edge). The JPEG's
    /// precision is `precision` bits (the sensor's), more if a sample needs it: a decoder
    /// refuses a sample wider than the precision, so the values are never at risk.
    public static func encode(_ samples: UnsafePointer<UInt16>, width: Int, height: Int, rowStride: Int,
                              filledWidth: Int? = nil, filledHeight: Int? = nil, precision wanted: Int) -> [UInt8] {
        precondition(width > 0 && height > 0 && width <= 65535 * 2 && height <= 65535, "a JPEG's size fits 16 bits")
        let filled = (width: min(filledWidth ?? width, width), height: min(filledHeight ?? height, height))
        precondition(filled.width > 0 && filled.height > 0, "a tile reads at least one sample")
        var widest: UInt16 = 0
        for y in 0..<filled.height {
            let row = samples + y * rowStride
            for x in 0..<filled.width { widest |= row[x] }
        }
        // (T.81 allows 2 to 16 bits.)
        let precision = min(max(wanted, UInt16.bitWidth - widest.leadingZeroBitCount, 2), 16)
        let components = width % 2 == 0 ? 2 : 1
        let tile = Tile(samples: samples, rowStride: rowStride, filledWidth: filled.width, filledHeight: filled.height,
                        width: width, height: height, components: components, precision: precision)
        // Two passes: the differences' sizes counted, then coded with a table made for them.
        var frequencies = [Int](repeating: 0, count: 17)
        tile.forEachDifference { size, _ in frequencies[size] += 1 }
        let code = JPEGHuffmanCode(frequencies: frequencies)
        var output = headers(width: width, height: height, components: components, precision: precision, code: code)
        var bits = JPEGBitWriter(reservingCapacity: width * height * precision / 12)
        code.codes.withUnsafeBufferPointer { codes in
            code.lengths.withUnsafeBufferPointer { lengths in
                tile.forEachDifference { size, difference in
                    bits.write(UInt32(codes[size]), length: Int(lengths[size]))
                    // A negative difference is sent as difference - 1 in `size` bits; size 16
                    // (only -32768) sends none.
                    if size > 0 && size < 16 {
                        bits.write(UInt32(truncatingIfNeeded: difference < 0 ? difference - 1 : difference), length: size)
                    }
                }
            }
        }
        bits.finish()
        output += bits.bytes
        output += [0xFF, 0xD9]  // EOI
        return output
    }

    /// SOI, the Huffman table (DHT), the frame (SOF3) and the scan's header (SOS).
    private static func headers(width: Int, height: Int, components: Int, precision: Int, code: JPEGHuffmanCode) -> [UInt8] {
        func u16(_ value: Int) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
        var bytes: [UInt8] = [0xFF, 0xD8]
        // Table class 0 (DC and lossless), number 0.
        // (One append a field: a single long `+` chain is too much for Swift 6.2's type checker.)
        bytes += [0xFF, 0xC4]
        bytes += u16(2 + 1 + 16 + code.symbols.count)
        bytes += [0x00]
        bytes += code.lengthCounts
        bytes += code.symbols
        bytes += [0xFF, 0xC3]
        bytes += u16(8 + 3 * components)
        bytes += [UInt8(precision)]
        bytes += u16(height)
        bytes += u16(width / components)
        bytes += [UInt8(components)]
        for component in 1...components { bytes += [UInt8(component), 0x11, 0x00] }
        bytes += [0xFF, 0xDA]
        bytes += u16(6 + 2 * components)
        bytes += [UInt8(components)]
        for component in 1...components { bytes += [UInt8(component), 0x00] }
        // Ss: the predictor; Se: 0; Ah, Al (the point transform): 0.
        bytes += [predictor, 0x00, 0x00]
        return bytes
    }

    /// The samples as T.81 predicts them, the edges repeated past the filled part.
    private struct Tile {
        let samples: UnsafePointer<UInt16>
        let rowStride: Int
        let filledWidth: Int
        let filledHeight: Int
        let width: Int
        let height: Int
        let components: Int
        let precision: Int

        /// Each sample's difference from its prediction, wrapped to 16 bits as decoders add it
        /// back, with its size in bits (T.81's SSSS), in the scan's order.
        func forEachDifference(_ body: (Int, Int) -> Void) {
            let first = 1 << (precision - 1)
            let wraps = precision == 16
            var previousRow = samples
            for y in 0..<height {
                let row = samples + min(y, filledHeight - 1) * rowStride
                for x in 0..<width {
                    let sample = Int(row[min(x, filledWidth - 1)])
                    let prediction: Int
                    if x < components {
                        // The first of each component in a row: from above (the first row: the
                        // middle of the range).
                        prediction = y == 0 ? first : Int(previousRow[min(x, filledWidth - 1)])
                    } else {
                        prediction = Int(row[min(x - components, filledWidth - 1)])
                    }
                    var difference = sample - prediction
                    if wraps { difference = Int(Int16(truncatingIfNeeded: difference)) }
                    let magnitude = difference < 0 ? -difference : difference
                    body(magnitude == 0 ? 0 : Int.bitWidth - magnitude.leadingZeroBitCount, difference)
                }
                previousRow = row
            }
        }
    }
}
