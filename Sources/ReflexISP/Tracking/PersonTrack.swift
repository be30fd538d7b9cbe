import ReflexCore

/// One person followed from frame to frame: an identity, where they are and how they move.
public struct PersonTrack: Sendable, Equatable {
    public let id: Int
    var motion: BoxMotion
    /// The time `motion` is estimated at.
    public internal(set) var estimatedAt: Double
    /// When a detection last matched it, and how many have.
    public internal(set) var lastSeen: Double
    public internal(set) var hits: Int

    init(id: Int, detection: PersonDetection, at time: Double) {
        self.id = id
        motion = BoxMotion(box: detection.box)
        (estimatedAt, lastSeen, hits) = (time, time, 1)
    }

    /// Seen often enough to be a person, not one stray detection.
    public var isConfirmed: Bool { hits >= SubjectTracker.hitsToConfirm }

    /// Where the person is at `time` (predicted from the estimate).
    public func box(at time: Double) -> FrameBox { motion.box(after: time - estimatedAt) }

    /// The centre's speed in fractions of the picture a second.
    public var velocity: (x: Double, y: Double) { motion.velocity }

    /// For the framing rule: where the person is at `time` and how fast they move.
    public func subject(at time: Double) -> AutoFraming.Subject {
        AutoFraming.Subject(box: box(at: time), velocityX: velocity.x, velocityY: velocity.y, heightVelocity: motion.heightVelocity)
    }
}
