/// Why a photo file could not be made: what was being done and, where a C library said why,
/// its own words. Nothing is written to the card when encoding throws.
public struct PhotoEncodingError: Error, CustomStringConvertible, Sendable, Equatable {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
