/// The four dials of Pro mode.
public enum Dial: String, Sendable, CaseIterable {
    case iso, shutter, focus, whiteBalance = "wb"

    /// The dial after this one, round `allCases` (a switch: no array made).
    public var next: Dial {
        switch self {
        case .iso: .shutter
        case .shutter: .focus
        case .focus: .whiteBalance
        case .whiteBalance: .iso
        }
    }

    /// The dial in `position` of Pro's strip, left to right (`allCases`' order: no array
    /// made, as a touch asks it on the loop's thread); nil past the fourth.
    public init?(position: Int) {
        switch position {
        case 0: self = .iso
        case 1: self = .shutter
        case 2: self = .focus
        case 3: self = .whiteBalance
        default: return nil
        }
    }

    /// The dial before this one, round `allCases`.
    public var previous: Dial {
        switch self {
        case .iso: .whiteBalance
        case .shutter: .iso
        case .focus: .shutter
        case .whiteBalance: .focus
        }
    }

    /// How far a finger drags for one step, in points (1/160 inch, the seeds' unit).
    /// Seed 001 uses ~30 pt for focus; ISO and shutter stops are bigger changes and want a
    /// firmer pull; the Kelvin dial has 81 stops and wants a lighter one.
    public var dragThresholdPoints: Double {
        switch self {
        case .iso, .shutter: 40
        case .focus: 30
        case .whiteBalance: 16
        }
    }
}
