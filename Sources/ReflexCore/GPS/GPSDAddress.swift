/// Where gpsd listens: 127.0.0.1:2947 (gpsd's own port, on the loopback address by number: a
/// minimal board image may have no /etc/hosts to say what "localhost" is) unless the
/// Board's gps.conf (`host = …`, `port = …`)
/// says otherwise, and `GPSD_HOST` / `GPSD_PORT` in the environment (what the tests use)
/// over both.
public struct GPSDAddress: Sendable, Equatable, CustomStringConvertible {
    public static let defaultPort: UInt16 = 2947
    public static let defaultHost = "127.0.0.1"
    public var host = GPSDAddress.defaultHost
    public var port = GPSDAddress.defaultPort

    public init(host: String = GPSDAddress.defaultHost, port: UInt16 = GPSDAddress.defaultPort) {
        (self.host, self.port) = (host, port)
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// The Board's gps.conf.
    public static func parse(_ text: String) -> Result<GPSDAddress, KeyValueText.ConfigurationProblem> {
        var address = GPSDAddress()
        let problem = KeyValueText.readConfiguration(text) { key, value in
            switch key {
            case "host":
                guard !value.isEmpty, !value.contains(where: \.isWhitespace) else { return .badValue }
                address.host = value
            case "port":
                guard let port = UInt16(value), port > 0 else { return .badValue }
                address.port = port
            default: return .unknownKey
            }
            return .accepted
        }
        return problem.map { .failure($0) } ?? .success(address)
    }

    /// This address with the environment's GPSD_HOST and GPSD_PORT over it (an unusable port
    /// is ignored).
    public func overridden(host: String?, port: String?) -> GPSDAddress {
        var address = self
        if let host, !host.isEmpty { address.host = host }
        if let port, let number = UInt16(port), number > 0 { address.port = number }
        return address
    }
}
