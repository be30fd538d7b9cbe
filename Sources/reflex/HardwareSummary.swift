import ReflexHardware

/// One log line per kind of hardware, so the journal of a booted board says what it has.
enum HardwareSummary {
    static func lines() -> [String] {
        let cameras = CaptureDeviceProbe.scan().devices
        let cards = DisplayProbe.scan().cards
        let inputs = InputProbe.scan().devices
        var lines: [String] = []
        lines.append(cameras.isEmpty ? "camera: none found"
            : "camera: " + cameras.map { "\($0.path) \($0.card) (\($0.formats.count) formats)" }.joined(separator: "; "))
        lines.append(cards.isEmpty ? "display: none found"
            : "display: " + cards.map { card in
                let connected = card.connectors.filter(\.connected).map(\.name)
                return "\(card.path) \(card.driver) [\(connected.isEmpty ? "nothing connected" : connected.joined(separator: ", "))]"
            }.joined(separator: "; "))
        lines.append("input: \(inputs.count) device(s)"
            + (inputs.isEmpty ? "" : ": " + inputs.map(\.name).joined(separator: ", ")))
        return lines
    }
}
