import ReflexSystem
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Whole-file writes that survive a crash or power loss at any instant: the new content
/// goes to a temporary file in the same folder, is fsynced, renamed over the target (an
/// atomic replace), and the folder is fsynced so the rename itself is on disk. A reader
/// sees the old file or the new one, never a mix; no half-written file is ever visible
/// under the target's name.
public enum AtomicFile {
    /// The prefix of in-flight temporary files: hidden, and naming their writer's pid so
    /// leftovers of a killed writer can be told from a live writer's.
    static func temporaryPrefix(for name: String) -> String { ".\(name).tmp-" }

    /// Makes each write's temporary file its own, even when threads save at the same time.
    private static let writeCounter = Atomic<Int>(0)

    /// The pid in a temporary file's name (`.<name>.tmp-<pid>-<n>`), if it is one.
    static func writerPID(ofTemporary name: String, for target: String) -> pid_t? {
        let prefix = temporaryPrefix(for: target)
        guard name.hasPrefix(prefix) else { return nil }
        return pid_t(name.dropFirst(prefix.count).prefix { $0 != "-" })
    }

    public static func write(_ bytes: [UInt8], to path: String, permissions: mode_t = 0o644) throws(SystemError) {
        let (folder, name) = split(path)
        let serial = writeCounter.add(1, ordering: .relaxed).newValue
        let temporary = folder + "/" + temporaryPrefix(for: name) + "\(getpid())-\(serial)"

        let fd = retryingOnInterrupt { open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions) }
        guard fd >= 0 else { throw SystemError("create", path: temporary) }
        do throws(SystemError) {
            try writeAll(bytes, to: fd, path: temporary)
            guard fsync(fd) == 0 else { throw SystemError("fsync", path: temporary) }
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        guard close(fd) == 0 else {
            let failure = SystemError("close", path: temporary)
            unlink(temporary)
            throw failure
        }
        guard rename(temporary, path) == 0 else {
            let failure = SystemError("rename", path: path)
            unlink(temporary)
            throw failure
        }
        try syncFolder(folder)
    }

    /// Moves a file aside (e.g. a corrupt one kept for inspection), durably.
    public static func move(_ source: String, to destination: String) throws(SystemError) {
        guard rename(source, destination) == 0 else { throw SystemError("rename", path: source) }
        try syncFolder(split(destination).folder)
    }

    /// Makes the folder's entries (a rename, a new file) durable.
    public static func syncFolder(_ folder: String) throws(SystemError) {
        let fd = retryingOnInterrupt { open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard fd >= 0 else { throw SystemError("open folder", path: folder) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw SystemError("fsync folder", path: folder) }
    }

    /// Reads a whole file, refusing one larger than `limit` bytes (it returns limit + 1
    /// bytes so the caller can say how it was too large). Nil when the file does not exist.
    public static func read(_ path: String, limit: Int) throws(SystemError) -> [UInt8]? {
        let fd = retryingOnInterrupt { open(path, O_RDONLY | O_CLOEXEC) }
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw SystemError("open", path: path)
        }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: limit + 1)
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                retryingOnInterrupt { Glibc.read(fd, buffer.baseAddress! + filled, buffer.count - filled) }
            }
            guard count >= 0 else { throw SystemError("read", path: path) }
            if count == 0 { break }
            filled += count
        }
        bytes.removeSubrange(filled...)
        return bytes
    }

    /// Creates a folder and its parents (like `mkdir -p`); each new folder is made durable in
    /// its parent, so a first save cannot vanish with its folder on power loss.
    public static func createFolder(_ path: String, permissions: mode_t = 0o755) throws(SystemError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            let parent = prefix.isEmpty ? "/" : prefix
            prefix += "/" + component
            if mkdir(prefix, permissions) == 0 {
                try syncFolder(parent)
            } else if errno != EEXIST {
                throw SystemError("create folder", path: prefix)
            }
        }
        var status = stat()
        guard stat(path, &status) == 0 else { throw SystemError("stat", path: path) }
        guard status.st_mode & S_IFMT == S_IFDIR else { throw SystemError("create folder", path: path, code: ENOTDIR) }
    }

    static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }

    private static func writeAll(_ bytes: [UInt8], to fd: Int32, path: String) throws(SystemError) {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                retryingOnInterrupt { Glibc.write(fd, buffer.baseAddress! + written, buffer.count - written) }
            }
            guard count > 0 else { throw SystemError("write", path: path, code: count == 0 ? EIO : errno) }
            written += count
        }
    }
}
