import ReflexCore

/// Where this camera's remote reaches a phone.
enum RemoteWay {
    /// `reflex run --remote ADDRESS:PORT` (a host, a test): served there, on a network the
    /// machine is already on.
    case address(host: String, port: Int)
    /// The board's remote.conf: its own Wi-Fi network, or an interface the system connects.
    case board(BoardRemote)
    /// None: why, for the quick menu's Remote line.
    case none(String)
}
