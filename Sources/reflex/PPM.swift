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
}
