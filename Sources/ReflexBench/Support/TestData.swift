import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// The repository's Tests/Data (real sensor frames, with their licences), which `reflex
/// bench` reads: found from the working folder, or above the binary (a checkout's
/// .build/release/reflex → Tests/Data).
enum TestData {
    static let folderInRepository = "Tests/Data"

    static func locate(_ explicit: String?) -> String? {
        if let explicit { return explicit }
        var candidates = [folderInRepository]
        var folder = executablePath()
        for _ in 0..<5 {
            guard let slash = folder.lastIndex(of: "/") else { break }
            folder = String(folder[..<slash])
            candidates.append(folder + "/" + folderInRepository)
        }
        return candidates.first { access($0 + "/raw", R_OK) == 0 }
    }

    /// A whole file in a buffer the caller frees.
    static func load(_ path: String) throws -> UnsafeMutableRawBufferPointer {
        let file = try FileDescriptor(opening: path, O_RDONLY)
        var status = stat()
        _ = try systemCall("stat", path: path) { fstat(file.rawValue, &status) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Int(status.st_size), alignment: 64)
        var filled = 0
        while filled < buffer.count {
            let count = try file.read(into: buffer.baseAddress! + filled, count: buffer.count - filled)
            guard count > 0 else {
                buffer.deallocate()
                throw BenchError("cannot read \(path): it ended after \(filled) bytes")
            }
            filled += count
        }
        return buffer
    }
}
