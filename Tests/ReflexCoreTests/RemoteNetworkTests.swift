import ReflexCore
import Testing

/// The remote's own network as the board describes it (remote.conf) and as hostapd and
/// dnsmasq are given it: the rules, checked without a radio (issue 54, the network).
@Suite struct RemoteNetworkTests {
    @Test func aBoardFileNamesItsInterfaceAndKeepsTheRestByDefault() throws {
        let remote = try BoardRemote.parse("# the Pi 5's radio\ninterface = wlan0\n").get()
        #expect(remote.way == .accessPoint && remote.interface == "wlan0")
        #expect(remote.address.description == "192.168.4.1/24" && remote.port == 8080 && remote.channel == 6)
        #expect(remote.country == nil && remote.security == .wpa2)
        let usb = try BoardRemote.parse("way = interface\ninterface = usb0\nport = 9000\n").get()
        #expect(usb.way == .interface && usb.interface == "usb0" && usb.port == 9000)
    }

    @Test(arguments: [
        ("way = access-point\n", "no interface = … line"),
        ("interface = wlan0 x\n", "interface = wlan0 x is not a valid value"),
        ("interface = ../../etc\n", "interface = ../../etc is not a valid value"),
        ("interface = wlan0\nchannel = 36\n", "channel = 36 is not a valid value"),
        ("interface = wlan0\naddress = 192.168.4.300/24\n", "address = 192.168.4.300/24 is not a valid value"),
        ("interface = wlan0\naddress = 10.0.0.1/30\n", "address = 10.0.0.1/30 is not a valid value"),
        ("interface = wlan0\ncountry = GBR\n", "country = GBR is not a valid value"),
        ("interface = wlan0\nsecurity = wep\n", "security = wep is not a valid value"),
        ("interface = wlan0\nssid = mine\n", "unknown key ssid"),
    ])
    func aBoardFileThatCannotBeUsedSaysWhy(text: String, why: String) {
        guard case .failure(let problem) = BoardRemote.parse(text) else {
            Issue.record("\(text) was taken")
            return
        }
        #expect(problem.description == why)
    }

    @Test func theNetworkLendsAddressesBesideTheCamerasOwn() throws {
        let home = try #require(IPv4Subnet(parsing: "192.168.4.1/24"))
        #expect(home.host == "192.168.4.1" && home.netmask == "255.255.255.0")
        #expect(home.lentRange == ("192.168.4.10", "192.168.4.60"))
        // The camera's own address inside the usual range: the range starts above it.
        let inside = try #require(IPv4Subnet(parsing: "10.1.2.20/24"))
        #expect(inside.lentRange == ("10.1.2.21", "10.1.2.71"))
        // A small network: up to its last address but the broadcast.
        let small = try #require(IPv4Subnet(parsing: "172.16.0.1/27"))
        #expect(small.lentRange == ("172.16.0.10", "172.16.0.30") && small.netmask == "255.255.255.224")
        for bad in ["192.168.4.1", "192.168.4/24", "192.168.4.1/33", "1.2.3.4.5/8", "a.b.c.d/24", "192.168.04.1/24x"] {
            #expect(IPv4Subnet(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test func theNetworksNameComesFromTheMachineAndItsPassphraseIsReadable() {
        #expect(WiFiNetwork.name(machineID: "5f1c0e4a9d6b4c0f8e2a7b3d1c9e3f9a\n") == "Reflex-3F9A")
        #expect(WiFiNetwork.name(machineID: "") == "Reflex")
        #expect(WiFiNetwork.name(machineID: "not-a-machine-id") == "Reflex")
        var random = SystemRandomNumberGenerator()
        var seen: Set<String> = []
        for _ in 0..<50 {
            let passphrase = WiFiNetwork.newPassphrase(random: &random)
            #expect(passphrase.count == 14 && WiFiNetwork.isValidPassphrase(passphrase))
            let groups = passphrase.split(separator: "-")
            #expect(groups.count == 3 && groups.allSatisfy { $0.count == 4 })
            #expect(passphrase.allSatisfy { $0 == "-" || WiFiNetwork.passphraseAlphabet.contains($0) })
            #expect(!passphrase.contains(where: { "0o1li".contains($0) }), "nothing read as something else")
            seen.insert(passphrase)
        }
        #expect(seen.count == 50)
        #expect(!WiFiNetwork.isValidPassphrase("short") && !WiFiNetwork.isValidPassphrase("line\nbreak-in-it"))
        #expect(!WiFiNetwork.isValidPassphrase(String(repeating: "a", count: 64)))
    }

    @Test func theJoinCodeEscapesWhatTheFormatReserves() {
        let plain = WiFiNetwork(name: "Reflex-3F9A", passphrase: "k7mq-x3vp-9tfd")
        #expect(plain.joinText == "WIFI:T:WPA;S:Reflex-3F9A;P:k7mq-x3vp-9tfd;;")
        let odd = WiFiNetwork(name: "Cam;1", passphrase: "a\\b:c,d\"e")
        #expect(odd.joinText == "WIFI:T:WPA;S:Cam\\;1;P:a\\\\b\\:c\\,d\\\"e;;")
    }

    @Test func hostapdIsGivenTheNetworkAndNothingElse() throws {
        var board = try BoardRemote.parse("interface = wlan0\nchannel = 11\ncountry = de\n").get()
        let network = WiFiNetwork(name: "Reflex-3F9A", passphrase: "k7mq-x3vp-9tfd")
        let lines = AccessPointFiles(board: board, network: network).hostapdConfiguration.split(separator: "\n")
        #expect(lines.contains("interface=wlan0") && lines.contains("channel=11") && lines.contains("driver=nl80211"))
        #expect(lines.contains("ssid2=5265666c65782d33463941"), "the name as hex: no character of it read as a key")
        #expect(lines.contains("wpa=2") && lines.contains("wpa_key_mgmt=WPA-PSK") && lines.contains("wpa_passphrase=k7mq-x3vp-9tfd"))
        #expect(lines.contains("country_code=DE"))
        #expect(!lines.contains { $0.hasPrefix("ieee80211w") })
        board.security = .wpa2wpa3
        let both = AccessPointFiles(board: board, network: network).hostapdConfiguration.split(separator: "\n")
        #expect(both.contains("wpa_key_mgmt=WPA-PSK SAE") && both.contains("ieee80211w=1"))
        #expect(Set(both.map { $0.split(separator: "=").first! }).count == both.count, "each key once")
    }

    @Test func dnsmasqLendsAddressesOnTheInterfaceAloneAndOffersNoRoute() throws {
        let board = try BoardRemote.parse("interface = wlan0\n").get()
        let files = AccessPointFiles(board: board, network: WiFiNetwork(name: "Reflex", passphrase: "abcd-efgh-jkmn"))
        let arguments = files.dnsmasqArguments(runFolder: "/run/reflex")
        #expect(arguments.contains("--interface=wlan0") && arguments.contains("--bind-interfaces"))
        #expect(arguments.contains("--dhcp-range=192.168.4.10,192.168.4.60,255.255.255.0,1h"))
        #expect(arguments.contains("--port=0"), "no name server: the phone keeps its own for the internet")
        #expect(arguments.contains("--dhcp-option=option:router") && arguments.contains("--keep-in-foreground"))
        #expect(arguments.contains("--dhcp-leasefile=/run/reflex/dnsmasq.leases"))
    }

    @Test func aPhoneFindsThePagesCodeAfterTheAddress() {
        #expect(RemoteReport.pairingAddress(page: "http://192.168.4.1/", code: "123456") == "http://192.168.4.1/#code=123456")
        #expect(RemoteReport(state: .unavailable("why")).unavailableReason == "why")
        #expect(RemoteReport(state: .serving).unavailableReason == nil)
    }
}
