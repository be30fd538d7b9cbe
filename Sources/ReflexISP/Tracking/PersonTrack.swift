import ReflexCore
#if canImport(Glibc)
import Glibc
#endif

/// One person followed from frame to frame: an identity, where they are and how they move.
public struct PersonTrack: Sendable, Equatable {
    public let id: Int
    var motion: BoxMotion
    /// The time `motion` is estimated at.
    public internal(set) var estimatedAt: Double
    /// When a detection last matched it, and how many have.
    public internal(set) var lastSeen: Double
    public internal(set) var hits: Int
    /// When the person was first seen.
    public let firstSeen: Double
    /// Detections that looked where the person was predicted and did not find them, since
    /// last seen (a part of the frame the detector did not look at is no miss).
    public internal(set) var missedLooks = 0
    /// Where the person has been lately: the found centres and the logarithm of the found
    /// heights (how near), averaged over "lately" (`anchorSeconds`, or a few detections where
    /// they come seconds apart).
    private var anchorX: Double, anchorY: Double, anchorScale: Double
    private var anchorTime: Double
    /// Where they were found the last few times: the average above hides a to-and-fro.
    private var sightings: RecentSightings

    /// How long "lately" is for `travel`, where detections come often.
    public static let anchorSeconds = 2.0
    /// A person this far (in their heights) from where they have been lately is moving
    /// across the scene: at a quarter of their height a second or more, held for a while.
    public static let movingHeights = 0.5
    /// Sightings a mover needs before it takes over from someone standing still, where
    /// detections come often (fewer where they come seconds apart: `SubjectTracker`).
    public static let hitsToTakeOver = 5

    init(id: Int, detection: PersonDetection, at time: Double) {
        self.id = id
        motion = BoxMotion(box: detection.box)
        (estimatedAt, lastSeen, hits, firstSeen) = (time, time, 1, time)
        (anchorX, anchorY, anchorTime) = (detection.box.centreX, detection.box.centreY, time)
        anchorScale = log(max(detection.box.height, 1e-4))
        sightings = RecentSightings(centreX: detection.box.centreX, centreY: detection.box.centreY)
    }

    /// Found at `box` at `time`: the average of where they have been over `lately` seconds
    /// moves towards it. (On a slow board, with seconds between detections, "lately" spans a
    /// few of them: were it shorter than the gap, the average would jump to each sighting and
    /// no one would ever be seen moving.)
    mutating func seen(at box: FractionalBox, time: Double, lately: Double = PersonTrack.anchorSeconds) {
        let weight = min(max(time - anchorTime, 0) / lately, 1)
        anchorX += weight * (box.centreX - anchorX)
        anchorY += weight * (box.centreY - anchorY)
        anchorScale += weight * (log(max(box.height, 1e-4)) - anchorScale)
        anchorTime = time
        sightings.record(centreX: box.centreX, centreY: box.centreY)
        lastSeen = time
        hits += 1
        missedLooks = 0
    }

    /// How far the person is at `time` from where they have been lately, in their heights
    /// (`aspect`: the picture's width over its height, so across and up count alike); coming
    /// nearer or going away counts too, a height doubled or halved as one height.
    public func travel(at time: Double, aspect: Double) -> Double {
        let box = box(at: time)
        let dx = (box.centreX - anchorX) * aspect, dy = box.centreY - anchorY
        let across = (dx * dx + dy * dy).squareRoot() / max(box.height, 1e-4)
        let nearer = abs(log(max(box.height, 1e-4)) - anchorScale) / log(2)
        return (across * across + nearer * nearer).squareRoot()
    }

    /// How far the person is at `time` from the farthest of their last few sightings, in
    /// their heights: a walker to and fro found seconds apart is found far from one of them.
    public func spread(at time: Double, aspect: Double) -> Double {
        let box = box(at: time)
        return sightings.farthest(fromX: box.centreX, y: box.centreY, aspect: aspect) / max(box.height, 1e-4)
    }

    /// Moving across the scene (a skier, a runner), not standing still: seen often enough to
    /// tell, and away from where they have been lately or from where they were found.
    public func isMoving(at time: Double, aspect: Double) -> Bool {
        hits > SubjectTracker.hitsToConfirm && max(travel(at: time, aspect: aspect), spread(at: time, aspect: aspect))
            >= PersonTrack.movingHeights
    }

    /// Moving, and seen `hitsNeeded` times over a second at least, to take over from someone
    /// standing still: not a box that came and went (part of someone, a false find).
    public func isSteadilyMoving(at time: Double, aspect: Double, hitsNeeded: Int = PersonTrack.hitsToTakeOver) -> Bool {
        hits >= hitsNeeded && time - firstSeen >= 1 && isMoving(at: time, aspect: aspect)
    }

    /// Known to stand still: followed for longer than `lately` and hardly away from where
    /// they have been or were found (someone just found may be walking: not known yet).
    public func isStill(at time: Double, aspect: Double, lately: Double = PersonTrack.anchorSeconds) -> Bool {
        time - firstSeen >= lately
            && max(travel(at: time, aspect: aspect), spread(at: time, aspect: aspect)) < PersonTrack.movingHeights / 2
    }

    /// Seen often enough to be a person, not one stray detection.
    public var isConfirmed: Bool { hits >= SubjectTracker.hitsToConfirm }

    /// Where the person is at `time` (predicted from the estimate).
    public func box(at time: Double) -> FractionalBox { motion.box(after: time - estimatedAt) }

    /// The centre's speed in fractions of the picture a second.
    public var velocity: (x: Double, y: Double) { motion.velocity }

    /// For the framing rule: where the person is at `time` and how fast they move.
    public func subject(at time: Double) -> AutoFraming.Subject {
        AutoFraming.Subject(box: box(at: time), velocityX: velocity.x, velocityY: velocity.y, heightVelocity: motion.heightVelocity)
    }
}
