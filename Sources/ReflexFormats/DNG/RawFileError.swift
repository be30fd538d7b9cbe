/// Why a raw file (a DNG, its lossless JPEG tiles) cannot be read: what was found wrong, for
/// the log; review says "Cannot show this file" and goes on.
public struct RawFileError: Error, CustomStringConvertible, Sendable, Equatable {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
