/// What a root service started when the camera asks for it tells the camera, one line in its
/// state file: the remote's network (`reflex network`), the USB gadget (`reflex usb`). The
/// camera process itself never holds the rights to set up a radio or a gadget.
public enum RootServiceState: Sendable, Equatable, CustomStringConvertible {
    case starting
    /// Up: the network's name; the USB device controller the gadget is for.
    case up(String)
    /// It could not come up, or went down: why, for the screen.
    case failed(String)

    public var description: String {
        switch self {
        case .starting: "starting"
        case .up(let name): "up " + name
        case .failed(let why): "failed " + why
        }
    }

    /// The state file's line; nil for anything else.
    public init?(line: String) {
        let text = line.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        let (word, rest) = text.firstIndex(of: " ").map { (text[..<$0], String(text[text.index(after: $0)...])) } ?? (text[...], "")
        switch word {
        case "starting" where rest.isEmpty: self = .starting
        case "up" where !rest.isEmpty: self = .up(rest)
        case "failed" where !rest.isEmpty: self = .failed(rest)
        default: return nil
        }
    }
}
