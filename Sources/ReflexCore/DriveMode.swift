/// How the shutter takes pictures over time (issue 37): one photo a press, a burst while it is
/// held, a photo some seconds after the press, an exposure bracket, or photos at an interval.
public enum DriveMode: String, Sendable, CaseIterable {
    case single, burst
    case selfTimer = "self-timer"
    case bracketing, interval

    /// The modes this camera shoots so far (the menu offers these, the settings take these):
    /// bracketing has its planning and settings, not yet its shots.
    public static let available: [DriveMode] = [.single, .burst, .selfTimer, .interval]
}
