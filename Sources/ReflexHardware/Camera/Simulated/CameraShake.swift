#if canImport(Glibc)
import Glibc
#endif

/// A hand holding the camera, for the simulated sensor: each frame sees the scene from a
/// slightly different place, moved and turned about the frame's centre by a pose drawn from the
/// frame's number (so a burst is the same shake each run, and a frame rendered again without
/// noise, the truth, has its frame's pose). What Enhanced RAW's alignment must undo.
public struct CameraShake: Sendable, Equatable {
    /// How far the scene moves, in pixels either way along each axis.
    public var shift: Double
    /// How far it turns, in degrees either way.
    public var rotation: Double
    /// Tells two hands apart.
    public var seed: UInt64

    /// Where a frame sees the scene from: the scene's point (x, y) relative to the frame's
    /// centre is seen at (cosine·x − sine·y + dx, sine·x + cosine·y + dy).
    public struct Pose: Sendable, Equatable {
        public var dx = 0.0, dy = 0.0
        public var cosine = 1.0, sine = 0.0

        public static let still = Pose()
    }

    /// A hand at 1/30 s between frames of a 12 MP sensor shakes by a few pixels and a few
    /// hundredths of a degree.
    public init(shift: Double = 6, rotation: Double = 0.05, seed: UInt64 = 1) {
        self.shift = shift
        self.rotation = rotation
        self.seed = seed
    }

    public func pose(frame number: UInt64) -> Pose {
        var random = SplitMix(frame: number ^ (seed &* 0x9E37_79B9), stream: 7)
        func uniform() -> Double { Double(random.next() >> 11) / Double(1 << 53) * 2 - 1 }
        let dx = uniform() * shift, dy = uniform() * shift
        let angle = uniform() * rotation * .pi / 180
        return Pose(dx: dx, dy: dy, cosine: cos(angle), sine: sin(angle))
    }
}
