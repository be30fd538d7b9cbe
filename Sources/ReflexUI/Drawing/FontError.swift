/// Why the interface has no fonts, said plainly.
public struct FontError: Error, Sendable, CustomStringConvertible {
    public let description: String
}
