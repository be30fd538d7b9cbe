/// How short the machine is of memory, from the kernel's pressure stall information (PSI),
/// and what the camera gives up at each level to never be OOM-killed: first the frames it
/// keeps ahead (the zero-lag ring shrinks, fewer photos on their way at once), then, under
/// extreme pressure, the photos still waiting for their turn.
public enum MemoryPressureLevel: Int, Sendable, Comparable, CustomStringConvertible {
    case normal, moderate, severe

    /// The zero-lag ring's frames at this level, from its full size.
    public func ringFrames(of full: Int) -> Int {
        switch self {
        case .normal: full
        case .moderate: min(full, 3)
        case .severe: min(full, 2)
        }
    }

    /// Photos that may hold a frame's memory at once (taken, not yet written), from the most.
    public func photosOnTheirWay(of most: Int) -> Int {
        switch self {
        case .normal: most
        case .moderate: min(most, 4)
        case .severe: 1
        }
    }

    /// Whether presses still waiting for a frame, and photos waiting for the photo thread,
    /// are cancelled (said on screen).
    public var cancelsWaitingPhotos: Bool { self == .severe }

    public var description: String {
        switch self {
        case .normal: "normal"
        case .moderate: "moderate"
        case .severe: "severe"
        }
    }

    public static func < (a: MemoryPressureLevel, b: MemoryPressureLevel) -> Bool { a.rawValue < b.rawValue }
}
