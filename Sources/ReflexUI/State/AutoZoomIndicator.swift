/// What the AUTO ZOOM button shows.
public enum AutoZoomIndicator: Sendable, Equatable {
    /// No person detector on this camera: no button.
    case unavailable
    case off
    /// On, framing its subject (or waiting for one).
    case following
    /// On, framing the person the photographer tapped ("Following").
    case followingChosen
    /// On, the subject lost: widening to find it ("Subject lost").
    case searching
    /// On, paused by a manual zoom.
    case paused

    public var isOn: Bool { self != .unavailable && self != .off }
}
