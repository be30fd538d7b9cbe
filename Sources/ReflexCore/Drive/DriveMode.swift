/// How the shutter takes pictures over time (issue 37): one photo a press, a burst while it is
/// held, a photo some seconds after the press, an exposure bracket, or photos at an interval.
public enum DriveMode: String, Sendable, CaseIterable {
    case single, burst
    case selfTimer = "self-timer"
    case bracketing, interval

    /// The modes the menu offers and the settings take, in the menu's order.
    public static let available: [DriveMode] = [.single, .burst, .selfTimer, .bracketing, .interval]
}
