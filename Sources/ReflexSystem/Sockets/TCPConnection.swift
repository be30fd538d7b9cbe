#if canImport(Glibc)
import Glibc
#endif

/// A TCP client connection (IPv4 or IPv6, by name or number), made without blocking past a
/// time limit: how the camera reaches a daemon on the board, such as gpsd.
public enum TCPConnection {
    /// Why no connection was made, in words for the log ("Connection refused").
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public let reason: String
        public var description: String { reason }
    }

    /// Connected to `host`:`port` within `milliseconds` per address, or why not.
    public static func connect(host: String, port: UInt16, milliseconds: Int32) -> Result<FileDescriptor, Failure> {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var found: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(host, String(port), &hints, &found)
        guard resolved == 0, let first = found else {
            return .failure(Failure(reason: "\(host): " + String(cString: gai_strerror(resolved))))
        }
        defer { freeaddrinfo(first) }
        var lastFailure = Failure(reason: "\(host): no address")
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let address = candidate {
            candidate = address.pointee.ai_next
            switch attempt(address.pointee, milliseconds: milliseconds) {
            case .success(let socket): return .success(socket)
            case .failure(let failure): lastFailure = failure
            }
        }
        return .failure(lastFailure)
    }

    private static func attempt(_ address: addrinfo, milliseconds: Int32) -> Result<FileDescriptor, Failure> {
        let flags = Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        let raw = Glibc.socket(address.ai_family, address.ai_socktype | flags, address.ai_protocol)
        guard raw >= 0 else { return .failure(Failure(reason: String(cString: strerror(errno)))) }
        let socket = FileDescriptor(taking: raw)
        if Glibc.connect(raw, address.ai_addr, address.ai_addrlen) != 0 {
            guard errno == EINPROGRESS else { return .failure(Failure(reason: String(cString: strerror(errno)))) }
            var poller = pollfd(fd: raw, events: Int16(POLLOUT), revents: 0)
            guard retryingOnInterrupt({ poll(&poller, 1, milliseconds) }) == 1 else {
                return .failure(Failure(reason: "no answer within \(milliseconds) ms"))
            }
            var failure: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(raw, SOL_SOCKET, SO_ERROR, &failure, &length)
            guard failure == 0 else { return .failure(Failure(reason: String(cString: strerror(failure)))) }
        }
        return .success(socket)
    }
}
