import CFFmpeg
#if canImport(Glibc)
import Glibc
#endif

/// What FFmpeg's libraries said when a movie could not be made or written.
public struct MovieError: Error, CustomStringConvertible, Sendable {
    public let operation: String
    /// FFmpeg's code (a negative errno for a system error).
    public let code: Int32

    public init(_ operation: String, code: Int32) { (self.operation, self.code) = (operation, code) }

    /// The system's error number behind it (ENOSPC: the card is full), 0 when FFmpeg's own.
    public var systemError: Int32 { reflex_averror_to_errno(code) }
    public var isOutOfSpace: Bool { systemError == ENOSPC || systemError == EDQUOT }

    public var reason: String {
        var buffer = [CChar](repeating: 0, count: 128)
        reflex_av_error_string(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    public var description: String { "\(operation): \(reason)" }

    /// `result` when it is not an error (FFmpeg's calls return a negative code for one).
    @discardableResult
    public static func check(_ result: Int32, _ operation: String) throws(MovieError) -> Int32 {
        guard result >= 0 else { throw MovieError(operation, code: result) }
        return result
    }
}
