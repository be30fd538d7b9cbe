/// How an exposure bracket went, for the screen: a set whose frames could not all be taken,
/// or not all exposed as asked (the sensor's limits, a frame lost), says so.
public struct BracketOutcome: Sendable, Equatable {
    /// The press that asked for it.
    public var press: Int
    public var frames: Int
    /// Frames on their way to the card.
    public var taken: Int
    /// Of those, frames whose exposure (as the sensor reports it) is not the one asked.
    public var notAsAsked: Int

    public init(press: Int, frames: Int, taken: Int, notAsAsked: Int) {
        (self.press, self.frames, self.taken, self.notAsAsked) = (press, frames, taken, notAsAsked)
    }

    /// Every frame taken as asked.
    public var isComplete: Bool { taken == frames && notAsAsked == 0 }
}
