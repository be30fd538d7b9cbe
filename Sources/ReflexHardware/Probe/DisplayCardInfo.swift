/// A DRM card and its connectors as `reflex probe` reports them.
public struct DisplayCardInfo: Sendable, Equatable {
    public struct Mode: Sendable, Equatable, CustomStringConvertible {
        public let width: Int
        public let height: Int
        public let refreshHz: Int
        public let preferred: Bool
        public var description: String { "\(width)x\(height)@\(refreshHz)" + (preferred ? " (preferred)" : "") }
    }

    public struct Connector: Sendable, Equatable {
        public let name: String
        public let connected: Bool
        public let widthMillimetres: Int
        public let heightMillimetres: Int
        public let modes: [Mode]
    }

    public let path: String
    public let driver: String
    public let connectors: [Connector]
}
