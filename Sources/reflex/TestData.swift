#if canImport(Glibc)
import Glibc
#endif

/// ../shared/testdata, found from the working folder or from where the binary lives
/// (…/main/.build/release/reflex → …/shared/testdata).
enum TestData {
    static func locate(_ explicit: String?) -> String? {
        if let explicit { return explicit }
        var candidates = ["../shared/testdata", "shared/testdata"]
        var folder = executableFolder()
        for _ in 0..<5 {
            candidates.append(folder + "/../shared/testdata")
            folder += "/.."
        }
        return candidates.first { access($0 + "/raw", R_OK) == 0 }
    }

    private static func executableFolder() -> String {
        let path = executablePath()
        return String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
    }

    /// A whole file in a buffer the caller frees.
    static func load(_ path: String) throws -> UnsafeMutableRawBufferPointer {
        guard let file = fopen(path, "rb") else { throw BenchError("cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { fclose(file) }
        fseek(file, 0, SEEK_END)
        let size = ftell(file)
        fseek(file, 0, SEEK_SET)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 64)
        guard fread(buffer.baseAddress, 1, size, file) == size else {
            buffer.deallocate()
            throw BenchError("cannot read \(path)")
        }
        return buffer
    }
}
