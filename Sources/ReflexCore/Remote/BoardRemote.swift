/// How a board's remote reaches a phone (its remote.conf). Without the file the board has no
/// way to offer, and the quick menu's Remote line says so.
///
/// `way = access-point` (the default): the camera is its own Wi-Fi network on `interface`
/// (hostapd and dnsmasq), at `address` (192.168.4.1/24), on `channel` (6) under `country`'s
/// rules (a two-letter code; none: the radio's world domain), with `security` `wpa2` or
/// `wpa2-wpa3` (WPA2 and WPA3-SAE side by side, for a driver that does SAE: every mac80211
/// one; the Pi's brcmfmac does not in AP mode).
/// `way = interface`: the system puts `interface` on a network (Ethernet, a USB gadget's NCM,
/// a network wpa_supplicant joined) and the camera serves on the address it has there.
/// `port`: the page's (8080: the camera runs without the right to a port below 1024).
public struct BoardRemote: Sendable, Equatable {
    public enum Way: String, Sendable, Equatable {
        case accessPoint = "access-point"
        case interface
    }

    public enum Security: String, Sendable, Equatable {
        case wpa2
        case wpa2wpa3 = "wpa2-wpa3"
    }

    public var way = Way.accessPoint
    public var interface: String
    public var address = IPv4Subnet(address: [192, 168, 4, 1], prefixLength: 24)
    public var port = 8080
    public var channel = 6
    public var country: String?
    public var security = Security.wpa2

    public init(interface: String) { self.interface = interface }

    public static func parse(_ text: String) -> Result<BoardRemote, KeyValueText.ConfigurationProblem> {
        var remote = BoardRemote(interface: "")
        let problem = KeyValueText.readConfiguration(text) { key, value in
            switch key {
            case "way":
                guard let way = Way(rawValue: value.lowercased()) else { return .badValue }
                remote.way = way
            case "interface":
                // (An interface name: at most 15 characters, no slash or space.)
                guard (1...15).contains(value.utf8.count), !value.contains("/"), !value.contains(where: \.isWhitespace) else {
                    return .badValue
                }
                remote.interface = value
            case "address":
                guard let subnet = IPv4Subnet(parsing: value), (16...28).contains(subnet.prefixLength) else { return .badValue }
                remote.address = subnet
            case "port":
                guard let port = Int(value), (1...65535).contains(port) else { return .badValue }
                remote.port = port
            case "channel":
                // (2.4 GHz: every phone has it.)
                guard let channel = Int(value), (1...13).contains(channel) else { return .badValue }
                remote.channel = channel
            case "country":
                guard value.utf8.count == 2, value.allSatisfy({ $0.isASCII && $0.isLetter }) else { return .badValue }
                remote.country = value.uppercased()
            case "security":
                guard let security = Security(rawValue: value.lowercased()) else { return .badValue }
                remote.security = security
            default: return .unknownKey
            }
            return .accepted
        }
        if let problem { return .failure(problem) }
        if remote.interface.isEmpty { return .failure(.missingKey("interface")) }
        return .success(remote)
    }
}
