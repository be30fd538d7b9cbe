/// Which paired phone has the controls: one at a time, as a camera has one photographer. The
/// first phone that sends a control holds them until it has sent none for `idleSeconds`;
/// meanwhile the others may watch (live view, status, the card) but their controls are
/// refused, with the reason. Pure: the time is the caller's.
public struct ControlHolder: Sendable, Equatable {
    /// How long a holder's silence keeps the controls: long enough to frame a shot, short
    /// enough that a phone put in a pocket does not lock the others out for long.
    public static let idleSeconds = 60.0

    public private(set) var holder: String?
    private var lastControl = 0.0

    public init() {}

    /// Whether the phone with `token` may control at `now` (it then holds the controls).
    public mutating func mayControl(token: String, at now: Double) -> Bool {
        if let holder, holder != token, now - lastControl < Self.idleSeconds { return false }
        (holder, lastControl) = (token, now)
        return true
    }

    /// Whether `token`'s phone holds the controls at `now`, or may take them.
    public func isFree(for token: String, at now: Double) -> Bool {
        holder == nil || holder == token || now - lastControl >= Self.idleSeconds
    }

    /// The holder forgotten (Forget phones: its token no longer counts).
    public mutating func release() { holder = nil }
}
