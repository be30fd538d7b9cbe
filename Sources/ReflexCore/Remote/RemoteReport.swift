/// What the remote tells the camera's screen: whether it serves, where a phone finds it (the
/// network to join and the page's address, each with its QR code), the pairing code, a lock
/// after wrong codes, and who is connected. Posted by the remote's keeper, off the realtime
/// path; the codes are made there.
public struct RemoteReport: Sendable, Equatable {
    public enum State: Sendable, Equatable {
        case off
        /// The network or the server is starting.
        case starting
        case serving
        /// It could not start: why, for the screen.
        case failed(String)
        /// This camera has no way to reach a phone: why (the quick menu's Remote line says it).
        case unavailable(String)
    }

    public var state = State.off
    /// The camera's own network (nil: it serves on a network the system joined).
    public var network: WiFiNetwork?
    public var joinCode: QRCode?
    /// The page's address, `http://192.168.4.1/`.
    public var pageAddress: String?
    /// The address with the pairing code, for a phone's camera.
    public var pageCode: QRCode?
    public var pairingCode: String?
    /// Seconds pairing stays locked after wrong codes (nil: open).
    public var lockedSeconds: Int?
    /// Phones connected to the live view now, and whether one of them has the controls.
    public var phones = 0
    public var controlled = false

    public init(state: State = .off) { self.state = state }

    /// Why the Remote line cannot be turned on (nil: it can).
    public var unavailableReason: String? {
        if case .unavailable(let reason) = state { reason } else { nil }
    }

    /// The page's address carrying the pairing code: the page pairs with it by itself.
    public static func pairingAddress(page: String, code: String) -> String { page + "#code=" + code }
}
