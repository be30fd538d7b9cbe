/// An interface's IPv4 address with its prefix, `192.168.4.1/24`: the camera's address on its
/// own network, and the range it lends to phones.
public struct IPv4Subnet: Sendable, Equatable, CustomStringConvertible {
    public let address: [UInt8]
    public let prefixLength: Int

    public init(address: [UInt8], prefixLength: Int) {
        precondition(address.count == 4 && (0...32).contains(prefixLength))
        (self.address, self.prefixLength) = (address, prefixLength)
    }

    /// `a.b.c.d/n`; nil for anything else.
    public init?(parsing text: String) {
        let halves = text.split(separator: "/", omittingEmptySubsequences: false)
        guard halves.count == 2, let prefix = Int(halves[1]), (0...32).contains(prefix) else { return nil }
        let parts = halves[0].split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var bytes: [UInt8] = []
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy(\.isASCII), let byte = UInt8(part) else { return nil }
            bytes.append(byte)
        }
        self.init(address: bytes, prefixLength: prefix)
    }

    public var description: String { host + "/\(prefixLength)" }

    /// The address alone, `192.168.4.1`.
    public var host: String { address.map(String.init).joined(separator: ".") }

    /// The addresses phones are lent: from the 10th of the network to the 60th (or the
    /// network's last but one, if it is smaller), the camera's own left out by starting above
    /// it where it falls inside.
    public var lentRange: (first: String, last: String) {
        let value = Self.number(address)
        let network = value & mask, broadcast = network | ~mask
        var first = network + 10
        if (first...(first + 50)).contains(value) { first = value + 1 }
        let last = min(first + 50, broadcast - 1)
        return (Self.text(first), Self.text(last))
    }

    /// The netmask, `255.255.255.0`.
    public var netmask: String { Self.text(mask) }

    private var mask: UInt32 { prefixLength == 0 ? 0 : ~UInt32(0) << (32 - prefixLength) }

    private static func number(_ bytes: [UInt8]) -> UInt32 { bytes.reduce(0) { $0 << 8 | UInt32($1) } }

    private static func text(_ number: UInt32) -> String {
        (0..<4).map { String(number >> (24 - 8 * $0) & 0xFF) }.joined(separator: ".")
    }
}
