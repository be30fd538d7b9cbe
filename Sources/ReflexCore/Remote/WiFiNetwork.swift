/// The camera's own Wi-Fi network: its name, from the machine id so two cameras side by side
/// differ and one camera keeps its name, and its passphrase, generated once per camera.
public struct WiFiNetwork: Sendable, Equatable {
    public let name: String
    public let passphrase: String

    public init(name: String, passphrase: String) { (self.name, self.passphrase) = (name, passphrase) }

    /// `Reflex-` and the machine id's last four hex digits, upper case (`Reflex-3F9A`); plain
    /// `Reflex` when the id is not one (32 hex digits, /etc/machine-id).
    public static func name(machineID: String) -> String {
        let id = machineID.filter { !$0.isWhitespace }
        guard id.utf8.count == 32, id.allSatisfy(\.isHexDigit) else { return "Reflex" }
        return "Reflex-" + id.suffix(4).uppercased()
    }

    /// Letters and digits a person reads off a screen without mistaking one for another (no
    /// 0/o, 1/l/i): 31 of them.
    public static let passphraseAlphabet = Array("abcdefghjkmnpqrstuvwxyz23456789")

    /// A new passphrase: three groups of four from `passphraseAlphabet` (59 bits), joined by
    /// dashes for typing (`k7mq-x3vp-9tfd`), from `random` (the kernel's, on the camera).
    public static func newPassphrase<Random: RandomNumberGenerator>(random: inout Random) -> String {
        (0..<3).map { _ in String((0..<4).map { _ in passphraseAlphabet.randomElement(using: &random)! }) }
            .joined(separator: "-")
    }

    /// Whether `text` can be a WPA passphrase: 8 to 63 printable ASCII characters.
    public static func isValidPassphrase(_ text: String) -> Bool {
        (8...63).contains(text.utf8.count) && text.utf8.allSatisfy { (0x20...0x7E).contains($0) }
    }

    /// What a phone's camera reads from a QR code to join: `WIFI:T:WPA;S:name;P:pass;;`, the
    /// name and passphrase with `\ ; , : "` escaped by a backslash (the format Android and
    /// iOS read).
    public var joinText: String {
        func escaped(_ text: String) -> String {
            var result = ""
            for character in text {
                if "\\;,:\"".contains(character) { result.append("\\") }
                result.append(character)
            }
            return result
        }
        return "WIFI:T:WPA;S:\(escaped(name));P:\(escaped(passphrase));;"
    }
}
