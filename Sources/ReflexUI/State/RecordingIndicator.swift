/// What the top bar shows while a movie records: a red dot, the time recorded, and the
/// recording time the card has left (whole seconds, so the bar is drawn once a second).
public struct RecordingIndicator: Sendable, Equatable {
    public var elapsedSeconds: Int
    public var secondsLeft: Int?

    public init(elapsedSeconds: Int, secondsLeft: Int?) {
        (self.elapsedSeconds, self.secondsLeft) = (elapsedSeconds, secondsLeft)
    }
}
