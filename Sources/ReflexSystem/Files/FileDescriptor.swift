#if canImport(Glibc)
import Glibc
#endif

/// An open file descriptor that this value owns: it is closed exactly once, when the value
/// ends or by `close()`, which reports a failure (a write can surface only at close). It
/// cannot be copied, so no two owners can close it twice.
public struct FileDescriptor: ~Copyable {
    public let rawValue: Int32

    /// Takes ownership of a descriptor opened elsewhere (an eventfd, a timerfd).
    public init(taking rawValue: Int32) {
        self.rawValue = rawValue
    }

    public init(opening path: String, _ flags: Int32, permissions: mode_t = 0) throws(SystemError) {
        rawValue = try systemCall("open", path: path) { Glibc.open(path, flags | O_CLOEXEC, permissions) }
    }

    /// Opens `path` if it exists: nil when it does not, a thrown error for any other failure.
    public init?(openingIfPresent path: String, _ flags: Int32) throws(SystemError) {
        do throws(SystemError) {
            rawValue = try systemCall("open", path: path) { Glibc.open(path, flags | O_CLOEXEC) }
        } catch where error.code == ENOENT {
            return nil
        }
    }

    deinit { _ = Glibc.close(rawValue) }

    /// Closes now, saying whether the system reported a failure.
    public consuming func close() throws(SystemError) {
        let raw = rawValue
        discard self
        // Not retried on EINTR: on Linux the descriptor is gone whatever close returned.
        _ = try systemCall("close", retryOnInterrupt: false) { Glibc.close(raw) }
    }

    /// Reads up to `count` bytes; 0 at the end of the file.
    public func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(SystemError) -> Int {
        try systemCall("read") { Glibc.read(rawValue, buffer, count) }
    }

    /// Writes all `count` bytes (a short write continues where it stopped).
    public func writeAll(_ bytes: UnsafeRawPointer, count: Int, path: @autoclosure () -> String = "") throws(SystemError) {
        var written = 0
        while written < count {
            let wrote = try systemCall("write", path: path()) { Glibc.write(rawValue, bytes + written, count - written) }
            guard wrote > 0 else { throw SystemError("write", path: path(), code: EIO) }
            written += wrote
        }
    }

    /// Makes what was written durable (data and metadata).
    public func sync(path: @autoclosure () -> String = "") throws(SystemError) {
        _ = try systemCall("fsync", path: path()) { fsync(rawValue) }
    }

    /// Waits until a read would not block (data, or the other end closed), or `milliseconds`
    /// pass (-1: no limit); true if it would not.
    public func waitReadable(milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: rawValue, events: Int16(POLLIN), revents: 0)
        return retryingOnInterrupt { poll(&entry, 1, milliseconds) } > 0 && entry.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0
    }
}
