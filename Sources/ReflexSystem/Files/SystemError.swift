#if canImport(Glibc)
import Glibc
#endif

/// A failed system call: which operation, on which path, and errno's own words,
/// so a message on screen or in the log says what actually went wrong.
public struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    public let operation: String
    public let path: String
    public let code: Int32

    public init(_ operation: String, path: String = "", code: Int32 = errno) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    /// No space left: the card is full (the UI says "Storage full").
    public var isOutOfSpace: Bool { code == ENOSPC || code == EDQUOT }

    /// errno's words for the failure ("No such file or directory").
    public var reason: String { String(cString: strerror(code)) }

    public var description: String {
        (path.isEmpty ? operation : "\(operation) \(path)") + ": " + reason
    }
}
