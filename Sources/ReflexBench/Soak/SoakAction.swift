import ReflexCore

/// One thing a photographer does to the camera during `reflex bench soak`.
public enum SoakAction: Equatable, Sendable {
    /// A photo asked for in this format (through the mailbox, as `reflex capture` asks).
    case photo(CaptureFormat)
    /// The shutter key pressed or let go (held: a burst).
    case shutter(pressed: Bool)
    /// The record key: a movie starts, or the one under way stops.
    case record
    /// An encoder turned: 0 the selected dial, 1 the dial picker.
    case dial(wheel: Int, detents: Int)
    /// A zoom key pressed or let go (held: the zoom ramps).
    case zoom(inwards: Bool, pressed: Bool)
    /// A lens button tapped (the zoom glides to that lens, whose camera then streams).
    case lens(LensDescription.Role)
    /// The card filled with other files until it is under its Low storage mark.
    case fillCard
    /// Those files taken off again.
    case emptyCard
    /// The card's finished photos and movies read back by other programs, then deleted (as a
    /// photographer copies a card off and formats it).
    case checkCard
}
