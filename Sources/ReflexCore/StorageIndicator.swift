/// The card, as the photographer needs to know it.
public enum StorageIndicator: Sendable, Equatable {
    case ready
    /// Few shots left: said before it is too late.
    case low(shotsLeft: Int)
    /// No card: the viewfinder works; the shutter cannot save.
    case missing
}
