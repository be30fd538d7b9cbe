/// What Debian's hostapd and dnsmasq are given to make the camera its own network: hostapd's
/// configuration file and dnsmasq's command line, from the board's remote.conf and the
/// camera's network. Pure, so a board's network is checked on any machine.
public struct AccessPointFiles: Sendable, Equatable {
    public let board: BoardRemote
    public let network: WiFiNetwork

    public init(board: BoardRemote, network: WiFiNetwork) { (self.board, self.network) = (board, network) }

    /// hostapd.conf. The name and passphrase are checked where they are made (plain
    /// characters, no line break: nothing can be slipped into another key).
    public var hostapdConfiguration: String {
        var lines = [
            "interface=\(board.interface)",
            "driver=nl80211",
            "ssid2=" + Self.hexQuoted(network.name),
            "hw_mode=g",
            "channel=\(board.channel)",
            "ieee80211n=1",
            "wmm_enabled=1",
            // (No broadcast of a hidden network: the phone finds it by name or by the QR code.)
            "ignore_broadcast_ssid=0",
            "auth_algs=1",
            "wpa=2",
            "rsn_pairwise=CCMP",
            "wpa_passphrase=\(network.passphrase)",
        ]
        switch board.security {
        case .wpa2:
            lines.append("wpa_key_mgmt=WPA-PSK")
        case .wpa2wpa3:
            // Transition mode: WPA3 phones use SAE with protected management frames, older
            // ones WPA2-PSK, on one network.
            lines += ["wpa_key_mgmt=WPA-PSK SAE", "ieee80211w=1", "sae_require_mfp=1"]
        }
        if let country = board.country { lines += ["country_code=\(country)", "ieee80211d=1"] }
        return lines.joined(separator: "\n") + "\n"
    }

    /// dnsmasq's arguments: addresses for phones on the camera's interface only, no DNS (the
    /// phone keeps its mobile data for the internet: no router, no name server is offered),
    /// the leases in `runFolder`, in the foreground so the camera stops it.
    public func dnsmasqArguments(runFolder: String) -> [String] {
        let range = board.address.lentRange
        return [
            "--keep-in-foreground",
            "--conf-file=/dev/null",
            "--port=0",
            "--interface=\(board.interface)",
            "--bind-interfaces",
            "--except-interface=lo",
            "--dhcp-range=\(range.first),\(range.last),\(board.address.netmask),1h",
            "--dhcp-option=option:router",
            "--dhcp-option=option:dns-server",
            "--dhcp-leasefile=\(runFolder)/dnsmasq.leases",
            "--pid-file=\(runFolder)/dnsmasq.pid",
            "--log-facility=-",
            "--dhcp-authoritative",
        ]
    }

    /// A name as hostapd's `ssid2` takes any bytes: hex, so no character of it is read as
    /// anything but the name.
    static func hexQuoted(_ text: String) -> String {
        let digits = Array("0123456789abcdef")
        return String(text.utf8.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] })
    }
}
