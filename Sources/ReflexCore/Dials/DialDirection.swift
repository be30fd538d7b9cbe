/// Which way a dial was turned. What "up" means is fixed per dial by the seeds:
/// ISO up = more sensitive, shutter up = faster, focus up = farther, Kelvin up = warmer light source.
public enum DialDirection: Sendable, Equatable {
    case up, down

    /// +1 for up, -1 for down: the index offset in a stop list ordered the dial's way.
    public var offset: Int { self == .up ? 1 : -1 }
}
