/// Which way a dial was turned. What "up" means is fixed per dial by the seeds:
/// ISO up = more sensitive, shutter up = faster, focus up = farther, Kelvin up = warmer light source.
public enum DialDirection: Sendable, Equatable {
    case up, down

    /// +1 for up, -1 for down: the index offset in a stop list ordered the dial's way.
    public var offset: Int { self == .up ? 1 : -1 }
}

/// What the hand should feel after one dial step: a light tick when a stop (or mark) was
/// reached, a heavy bump when a bound refused the step, nothing for a step between marks.
public enum DialFeedback: Sendable, Equatable {
    case none
    case tick
    case bump
}

/// The value a dial step produced and what the user should feel.
public struct StepResult<Value: Sendable & Equatable>: Sendable, Equatable {
    public let value: Value
    public let feedback: DialFeedback

    public init(value: Value, feedback: DialFeedback) {
        self.value = value
        self.feedback = feedback
    }

    /// True when a bound stopped the step and the value did not change.
    public var stoppedAtBound: Bool { feedback == .bump }
}
