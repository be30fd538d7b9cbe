import ReflexCore
import ReflexStorage

/// The camera's network as kept with its settings: the passphrase is made once, the first time
/// the remote comes on, and kept in `file` (`passphrase = …`, readable by the camera alone,
/// written whole or not at all), so a phone that joined once joins again after any restart.
/// A file that cannot be read or holds no usable passphrase gets a new one (said in the log).
public enum WiFiNetworkKeeper {
    public static func network(file: String, machineID: String, log: @Sendable (String) -> Void) -> WiFiNetwork {
        let name = WiFiNetwork.name(machineID: machineID)
        if let bytes = try? AtomicFile.read(file, limit: 4096),
           case .success(let values) = KeyValueText.parse(String(decoding: bytes, as: UTF8.self)),
           let passphrase = values["passphrase"], WiFiNetwork.isValidPassphrase(passphrase) {
            return WiFiNetwork(name: name, passphrase: passphrase)
        }
        var random = SystemRandomNumberGenerator()
        let network = WiFiNetwork(name: name, passphrase: WiFiNetwork.newPassphrase(random: &random))
        do {
            try AtomicFile.write(Array("# The remote's Wi-Fi passphrase, made once for this camera\npassphrase = \(network.passphrase)\n".utf8),
                                 to: file, permissions: 0o600)
            log("remote: a new Wi-Fi passphrase for \(name), kept in \(file)")
        } catch {
            log("remote: the Wi-Fi passphrase could not be kept (\(error)); it changes at the next start")
        }
        return network
    }
}
