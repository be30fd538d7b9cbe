/// Why the photo at the head of the save queue is not on the card, as the screen says it:
/// the photo is kept (with every photo behind it, in order) until the photographer retries
/// or discards it, or, for a card taken out, until the card is back.
public struct SaveProblem: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// ENOSPC: the card is full.
        case storageFull
        /// No card (taken out, not mounted): saved by itself when one is back.
        case cardMissing
        /// Another error: EIO, a card gone read-only.
        case writeFailed
    }

    public var kind: Kind
    /// The banner's title.
    public var message: String
    /// What would help (free space, switch to JPEG), where something would.
    public var suggestion: String?
    /// Photos waiting, this one included.
    public var waiting: Int

    public init(kind: Kind, message: String, suggestion: String? = nil, waiting: Int) {
        (self.kind, self.message, self.suggestion, self.waiting) = (kind, message, suggestion, waiting)
    }

    /// The banner's second line: what is kept and what can be done.
    public var detail: String {
        let photos = waiting == 1 ? "1 photo" : "\(waiting) photos"
        if kind == .cardMissing { return "\(photos) waiting: saved when the card is back" }
        return "\(photos) kept" + (suggestion.map { " · " + $0 } ?? " until you choose")
    }
}
