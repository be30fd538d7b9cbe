import Glibc

/// A folder of its own under /tmp for one test's files, removed with everything in it when
/// the test is done.
final class TemporaryFolder {
    let path: String

    init() throws {
        var template = Array("/tmp/reflex-formats-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp: \(String(cString: strerror(errno)))") }
        path = String(cString: made)
    }

    deinit {
        if let folder = opendir(path) {
            while let entry = readdir(folder) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) {
                    String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name != "." && name != ".." { unlink(path + "/" + name) }
            }
            closedir(folder)
        }
        rmdir(path)
    }

    func file(_ name: String) -> String { path + "/" + name }

    /// Writes `bytes` to `name` in the folder; its path.
    @discardableResult
    func write(_ bytes: [UInt8], to name: String) throws -> String {
        let path = file(name)
        guard let handle = fopen(path, "wb") else { throw TestFailure("cannot create \(path)") }
        defer { fclose(handle) }
        guard fwrite(bytes, 1, bytes.count, handle) == bytes.count else { throw TestFailure("cannot write \(path)") }
        return path
    }

    static func read(_ path: String) throws -> [UInt8] {
        guard let handle = fopen(path, "rb") else { throw TestFailure("cannot open \(path)") }
        defer { fclose(handle) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&buffer, 1, buffer.count, handle)
            if count == 0 { break }
            bytes += buffer[0..<count]
        }
        return bytes
    }
}
