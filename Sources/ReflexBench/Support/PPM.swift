import ReflexStorage
#if canImport(Glibc)
import Glibc
#endif

/// Netpbm's binary RGB format: the simplest picture file a person can open, for looking at
/// what the ISP made without any image library.
enum PPM {
    static func write(_ pixels: UnsafePointer<UInt32>, width: Int, height: Int, to path: String) throws {
        var bytes = Array("P6\n\(width) \(height)\n255\n".utf8)
        bytes.reserveCapacity(bytes.count + width * height * 3)
        for i in 0..<(width * height) {
            let pixel = pixels[i]
            bytes.append(UInt8(truncatingIfNeeded: pixel >> 16))
            bytes.append(UInt8(truncatingIfNeeded: pixel >> 8))
            bytes.append(UInt8(truncatingIfNeeded: pixel))
        }
        guard let file = fopen(path, "wb") else { throw BenchError("cannot write \(path): \(String(cString: strerror(errno)))") }
        defer { fclose(file) }
        guard fwrite(bytes, 1, bytes.count, file) == bytes.count else { throw BenchError("cannot write \(path)") }
    }

    /// A 16-bit binary PPM (P6, maximum 65535, big-endian samples, as dcraw_emu -4 writes
    /// it) as its samples, three a pixel; nil when it is not one.
    static func read16(_ path: String) -> [UInt16]? {
        guard let bytes = try? AtomicFile.read(path, limit: 1 << 28), bytes.count > 16 else { return nil }
        var fields: [Int] = [], token = "", index = 2
        guard bytes[0] == 0x50, bytes[1] == 0x36 else { return nil }  // "P6"
        while fields.count < 3 && index < bytes.count {
            let c = bytes[index]
            if c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D {
                if !token.isEmpty { fields.append(Int(token) ?? -1); token = "" }
            } else {
                token.append(Character(UnicodeScalar(c)))
            }
            index += 1
        }
        guard fields.count == 3, fields[2] == 65535, bytes.count - index >= fields[0] * fields[1] * 6 else { return nil }
        return (0..<(fields[0] * fields[1] * 3)).map { UInt16(bytes[index + 2 * $0]) << 8 | UInt16(bytes[index + 2 * $0 + 1]) }
    }
}
