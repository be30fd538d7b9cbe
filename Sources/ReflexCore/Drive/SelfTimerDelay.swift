/// The self-timer's choices: 2 s (how a long exposure is taken without touching the camera),
/// 10 s (time to join the group), and 10 s with three shots (one of them with open eyes).
public enum SelfTimerDelay: String, Sendable, CaseIterable {
    case twoSeconds = "2s"
    case tenSeconds = "10s"
    case tenSecondsThreeShots = "10s-3"

    public var seconds: Double { self == .twoSeconds ? 2 : 10 }
    public var shots: Int { self == .tenSecondsThreeShots ? 3 : 1 }
}
