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
