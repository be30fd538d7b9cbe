/// The card, as the photographer needs to know it.
public enum StorageIndicator: Sendable, Equatable {
    case ready
    /// Few shots left, or none: said before it is too late.
    case low(StorageAdvice)
    /// No card: the viewfinder works; the shutter cannot save.
    case missing
    /// A card mounted read-only (its lock switch, or remounted after errors): nothing can be
    /// saved on it.
    case readOnly
}
