#if canImport(Glibc)
import Glibc
#endif

/// A request to a root service, made as the file its path unit watches (reflex-network.path,
/// reflex-usb.path): made, with its folder, to ask; removed to take the request back. So the
/// camera asks for what it has no right to do without holding any right itself.
public struct RequestFile: Sendable {
    public let path: String

    public init(_ path: String) { self.path = path }

    /// Makes the file; nil, or why it could not be made (errno's words).
    public func make() -> String? {
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        if !folder.isEmpty { mkdir(folder, 0o755) }
        let made = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard made >= 0 else { return String(cString: strerror(errno)) }
        close(made)
        return nil
    }

    public func withdraw() { unlink(path) }
}
