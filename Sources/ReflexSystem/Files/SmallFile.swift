#if canImport(Glibc)
import Glibc
#endif

/// The whole text of a small kernel file (/proc, /sys, a cgroup's limit): one read of up to
/// 16 KB, which is all such files ever hold. Nil when it cannot be opened.
public enum SmallFile {
    public static func text(_ path: String) -> String? {
        guard let file = try? FileDescriptor(opening: path, O_RDONLY) else { return nil }
        var bytes = [UInt8](repeating: 0, count: 16384)
        let count = bytes.withUnsafeMutableBytes { buffer in
            (try? file.read(into: buffer.baseAddress!, count: buffer.count)) ?? 0
        }
        return String(decoding: bytes[0..<count], as: UTF8.self)
    }
}
