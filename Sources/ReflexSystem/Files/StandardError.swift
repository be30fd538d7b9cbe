#if canImport(Glibc)
import Glibc
#endif

/// Messages for people go to stderr, so stdout stays clean for what a script reads.
public func log(_ message: String) {
    var standardError = StandardError()
    print("reflex: \(message)", to: &standardError)
}

/// fd 2 as a text stream, written straight through (no buffering to lose at a crash).
public struct StandardError: TextOutputStream {
    public init() {}

    public mutating func write(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
    }
}
