/// Why there is no picture on the panel, said plainly.
public struct DisplayError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
