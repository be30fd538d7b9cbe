/// The photographer's answer to a `SaveProblem`.
public enum SaveDecision: Sendable, Equatable {
    /// Write the same photo again (after space was freed, the card put back).
    case retry
    /// Drop that photo, and nothing else; the card is left as it was.
    case discard
}
