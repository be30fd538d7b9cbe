import ArgumentParser

/// Where `reflex run --remote` listens: ADDRESS:PORT (IPv4 or a name), PORT 0 for any free one.
struct RemoteAddress: ExpressibleByArgument {
    let host: String
    let port: Int

    init?(argument: String) {
        guard let colon = argument.lastIndex(of: ":"), let port = Int(argument[argument.index(after: colon)...]),
              (0...65535).contains(port), colon != argument.startIndex else { return nil }
        (host, self.port) = (String(argument[..<colon]), port)
    }
}
