/// Bits into a JPEG's entropy-coded segment, most significant first, with T.81's byte
/// stuffing (a 0xFF byte is followed by 0x00, so it is never read as a marker) and the last
/// byte padded with ones.
struct JPEGBitWriter {
    private(set) var bytes: [UInt8]
    private var buffer: UInt64 = 0
    private var count = 0

    init(reservingCapacity capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// The low `length` bits of `value` (at most 32).
    mutating func write(_ value: UInt32, length: Int) {
        guard length > 0 else { return }
        buffer = buffer << UInt64(length) | UInt64(value) & ((1 << UInt64(length)) - 1)
        count += length
        while count >= 8 {
            count -= 8
            let byte = UInt8(truncatingIfNeeded: buffer >> UInt64(count))
            bytes.append(byte)
            if byte == 0xFF { bytes.append(0) }
        }
    }

    /// Pads the last byte with ones; the segment is complete.
    mutating func finish() {
        if count > 0 { write((1 << UInt32(8 - count)) - 1, length: 8 - count) }
        buffer = 0
    }
}
