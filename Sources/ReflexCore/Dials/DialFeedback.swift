/// What the hand should feel after one dial step: a light tick when a stop (or mark) was
/// reached, a heavy bump when a bound refused the step, nothing for a step between marks.
public enum DialFeedback: Sendable, Equatable {
    case none
    case tick
    case bump
}
