#if canImport(Glibc)
import Glibc
#endif

/// A failed system call: which operation, on which path, and errno's own words,
/// so a message on screen or in the log says what actually went wrong.
public struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    public let operation: String
    public let path: String
    public let code: Int32

    public init(_ operation: String, path: String, code: Int32 = errno) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    /// No space left: the card is full (the UI says "Storage full").
    public var isOutOfSpace: Bool { code == ENOSPC || code == EDQUOT }

    public var description: String {
        "\(operation) \(path): \(String(cString: strerror(code)))"
    }
}

/// Repeats a system call interrupted by a signal.
@inline(__always)
public func retryingOnInterrupt<T: BinaryInteger>(_ call: () -> T) -> T {
    while true {
        let result = call()
        if result == -1 && errno == EINTR { continue }
        return result
    }
}
