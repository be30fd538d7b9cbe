/// What the hand feels, as docs/camera.md, The controls, says: a light tick for each stop a dial passes, a
/// heavier bump where a bound refuses the turn, a firm confirmation when the mode, the format
/// or the lens changes, and a short crisp pulse for the shutter. Rumble magnitudes (0…65535,
/// a motor's strong and weak sides) and lengths short enough that a fast spin's ticks stay
/// apart at the loop's 60 Hz.
public enum HapticEffect: Int, CaseIterable, Sendable {
    case tick
    case bump
    case confirm
    case shutter

    public var strongMagnitude: UInt16 {
        switch self {
        case .tick: 0
        case .bump: 0xC000
        case .confirm: 0x8000
        case .shutter: 0xFFFF
        }
    }

    public var weakMagnitude: UInt16 {
        switch self {
        case .tick: 0x9000
        case .bump: 0xFFFF
        case .confirm: 0x8000
        case .shutter: 0x6000
        }
    }

    public var milliseconds: UInt16 {
        switch self {
        case .tick: 12
        case .bump: 45
        case .confirm: 30
        case .shutter: 20
        }
    }

    /// Of two felt in one frame, the one the hand should get: the shutter over a bound over
    /// a confirmation over a tick (two pulses 16 ms apart feel like one). Two arguments, not
    /// a variadic list: the realtime loop calls it and must not allocate.
    public static func stronger(_ one: HapticEffect?, _ other: HapticEffect?) -> HapticEffect? {
        guard let one else { return other }
        guard let other else { return one }
        return one.precedence >= other.precedence ? one : other
    }

    private var precedence: Int {
        switch self {
        case .tick: 0
        case .confirm: 1
        case .bump: 2
        case .shutter: 3
        }
    }
}
