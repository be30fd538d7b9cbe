/// A binary PGM (P5) as LibRaw's unprocessed_raw writes the raw values: 16-bit, big-endian.
struct PGMImage {
    let width: Int
    let height: Int
    let samples: [UInt16]

    init(_ bytes: [UInt8]) throws {
        var offset = 0
        func token() -> String {
            while offset < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[offset]) { offset += 1 }
            let start = offset
            while offset < bytes.count, ![0x20, 0x0A, 0x0D, 0x09].contains(bytes[offset]) { offset += 1 }
            return String(decoding: bytes[start..<offset], as: UTF8.self)
        }
        guard token() == "P5", let width = Int(token()), let height = Int(token()), let maximum = Int(token()),
              maximum > 255 else { throw TestFailure("not a 16-bit PGM") }
        offset += 1  // the one whitespace byte before the pixels
        guard bytes.count - offset == width * height * 2 else {
            throw TestFailure("PGM has \(bytes.count - offset) bytes of pixels for \(width)×\(height)")
        }
        (self.width, self.height) = (width, height)
        let start = offset
        samples = (0..<(width * height)).map { UInt16(bytes[start + 2 * $0]) << 8 | UInt16(bytes[start + 2 * $0 + 1]) }
    }
}
