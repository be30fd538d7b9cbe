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
