#if canImport(Glibc)
import Glibc
#endif

/// A local stream socket (AF_UNIX) at a path: how another program on the camera talks to
/// the running one. Lines of text each way.
public enum UnixSocket {
    /// Listens at `path` (a stale socket file left by a killed camera is replaced).
    public static func listen(at path: String) throws(SystemError) -> FileDescriptor {
        unlink(path)
        let socket = try FileDescriptor(taking: systemCall("socket", path: path) {
            Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        })
        var address = try self.address(path)
        _ = try systemCall("bind", path: path) {
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket.rawValue, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
        }
        _ = try systemCall("listen", path: path) { Glibc.listen(socket.rawValue, 4) }
        return socket
    }

    /// Connects to the socket at `path`; nil when nothing listens there (no file, or a stale one).
    public static func connect(to path: String) throws(SystemError) -> FileDescriptor? {
        let socket = try FileDescriptor(taking: systemCall("socket", path: path) {
            Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        })
        var address = try self.address(path)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(socket.rawValue, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        if result == 0 { return socket }
        if errno == ENOENT || errno == ECONNREFUSED { return nil }
        throw SystemError("connect", path: path)
    }

    /// The next connection, or nil when none came within `milliseconds`.
    public static func accept(_ listening: borrowing FileDescriptor, milliseconds: Int32) -> FileDescriptor? {
        guard listening.waitReadable(milliseconds: milliseconds) else { return nil }
        let connection = Glibc.accept(listening.rawValue, nil, nil)
        guard connection >= 0 else { return nil }
        _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
        return FileDescriptor(taking: connection)
    }

    /// One line (without its newline), nil at the end or after `milliseconds` of silence;
    /// longer than `limit` bytes is cut there.
    public static func readLine(_ socket: borrowing FileDescriptor, milliseconds: Int32, limit: Int = 4096) -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while bytes.count < limit {
            guard socket.waitReadable(milliseconds: milliseconds),
                  let count = try? socket.read(into: &byte, count: 1), count == 1 else {
                return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
            }
            if byte == 0x0A { break }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes `line` and a newline; false when the other end has gone (never SIGPIPE: a
    /// client that went away must not stop the camera).
    @discardableResult
    public static func writeLine(_ socket: borrowing FileDescriptor, _ line: String) -> Bool {
        let bytes = Array((line + "\n").utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                retryingOnInterrupt { send(socket.rawValue, buffer.baseAddress! + sent, buffer.count - sent, Int32(MSG_NOSIGNAL)) }
            }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    private static func address(_ path: String) throws(SystemError) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw SystemError("socket path too long", path: path, code: ENAMETOOLONG)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in bytes.enumerated() { raw[i] = byte }
        }
        return address
    }
}
