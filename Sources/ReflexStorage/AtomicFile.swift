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

    /// Removes the temporary files in `folder` whose writer is gone (killed between creating
    /// one and renaming it); a live writer's are left alone. Returns the names removed.
    @discardableResult
    public static func removeAbandonedTemporaries(in folder: String) -> [String] {
        var removed: [String] = []
        for name in namesInFolder(folder) where name.hasPrefix(".") {
            guard let marker = name.firstRange(of: ".tmp-"),
                  let pid = writerPID(ofTemporary: name, for: String(name[name.index(after: name.startIndex)..<marker.lowerBound]))
            else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH, unlink(folder + "/" + name) == 0 { removed.append(name) }
        }
        return removed
    }

    public static func write(_ bytes: [UInt8], to path: String, permissions: mode_t = 0o644) throws(SystemError) {
        let (folder, name) = split(path)
        let serial = writeCounter.add(1, ordering: .relaxed).newValue
        let temporary = folder + "/" + temporaryPrefix(for: name) + "\(getpid())-\(serial)"

        let file = try FileDescriptor(opening: temporary, O_WRONLY | O_CREAT | O_EXCL, permissions: permissions)
        do throws(SystemError) {
            // (Array's closures rethrow untyped errors: the typed one comes out as a Result.)
            try bytes.withUnsafeBytes { buffer in
                Result { () throws(SystemError) in
                    if let base = buffer.baseAddress { try file.writeAll(base, count: buffer.count, path: temporary) }
                }
            }.get()
            try file.sync(path: temporary)
            try file.close()
            _ = try systemCall("rename", path: path) { rename(temporary, path) }
        } catch {
            unlink(temporary)
            throw error
        }
        try syncFolder(folder)
    }

    /// Moves a file aside (e.g. a corrupt one kept for inspection), durably.
    public static func move(_ source: String, to destination: String) throws(SystemError) {
        _ = try systemCall("rename", path: source) { rename(source, destination) }
        try syncFolder(split(destination).folder)
    }

    /// Makes the folder's entries (a rename, a new file) durable.
    public static func syncFolder(_ folder: String) throws(SystemError) {
        let directory = try FileDescriptor(opening: folder, O_RDONLY | O_DIRECTORY)
        try directory.sync(path: folder)
    }

    /// Reads a whole file, refusing one larger than `limit` bytes (it returns limit + 1
    /// bytes so the caller can say how it was too large). Nil when the file does not exist.
    public static func read(_ path: String, limit: Int) throws(SystemError) -> [UInt8]? {
        guard let file = try FileDescriptor(openingIfPresent: path, O_RDONLY) else { return nil }
        // Sized by the file (one byte more, to see it end), not the limit: a timelapse reads
        // hundreds of photos, and zeroing a limit's megabytes for each cost more than the read.
        var status = stat()
        let size = fstat(file.rawValue, &status) == 0 ? max(Int(status.st_size), 0) : limit
        var bytes = [UInt8](repeating: 0, count: min(size, limit) + 1)
        var filled = 0
        while filled < limit + 1 {
            // (A file that grew while read: more room, up to the limit's one byte over.)
            if filled == bytes.count { bytes += [UInt8](repeating: 0, count: min(bytes.count, limit + 1 - bytes.count)) }
            let count = try bytes.withUnsafeMutableBytes { buffer in
                Result { () throws(SystemError) in try file.read(into: buffer.baseAddress! + filled, count: buffer.count - filled) }
            }.get()
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
            do throws(SystemError) {
                _ = try systemCall("create folder", path: prefix) { mkdir(prefix, permissions) }
                try syncFolder(parent)
            } catch where error.code == EEXIST {}
        }
        var status = stat()
        _ = try systemCall("stat", path: path) { stat(path, &status) }
        guard status.st_mode & S_IFMT == S_IFDIR else { throw SystemError("create folder", path: path, code: ENOTDIR) }
    }

    static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }
}
