/// The parts of RAUC's system.conf (an INI file, `/etc/rauc/system.conf`) the camera reads
/// itself: its compatible, which a bundle must name, and the keyring it verifies with.
public struct RAUCSystemConfig: Sendable, Equatable {
    public let compatible: String
    /// `[keyring] path`, relative to the file's folder when not absolute (as RAUC reads it).
    public let keyringPath: String?

    public init(compatible: String, keyringPath: String?) {
        self.compatible = compatible
        self.keyringPath = keyringPath
    }

    /// Reads `text`, the file at `path`: nil when it names no `[system] compatible`.
    public init?(_ text: String, path: String) {
        var section = "", values: [String: String] = [:]
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingWhitespace()
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("["), line.hasSuffix("]") {
                section = String(line.dropFirst().dropLast()).trimmingCharacters(); continue
            }
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = String(line[..<equals].trimmingWhitespace())
            values[section + "." + key] = String(line[line.index(after: equals)...].trimmingWhitespace())
        }
        guard let compatible = values["system.compatible"], !compatible.isEmpty else { return nil }
        var keyring = values["keyring.path"]
        if let relative = keyring, !relative.hasPrefix("/"), let slash = path.lastIndex(of: "/") {
            keyring = String(path[...slash]) + relative
        }
        self.init(compatible: compatible, keyringPath: keyring)
    }
}

private extension String {
    func trimmingCharacters() -> String { String(Substring(self).trimmingWhitespace()) }
}
