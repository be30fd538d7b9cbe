import ReflexCore
import ReflexISP

/// What the analysis knows after a frame, for the realtime loop (which predicts the subject
/// to each vblank from it) and the screen: fixed size, so handing it over allocates nothing.
/// Boxes are in fractions of the zoom-1 picture.
public struct SubjectSnapshot: Sendable {
    /// The people drawn besides the subject, at most this many.
    public static let othersShown = 8

    /// The frame's time the estimates are for, and its sequence number (0: none yet).
    public var time = 0.0
    public var sequence: UInt32 = 0
    public var subject: PersonTrack?
    /// The photographer tapped it (rather than the rule choosing it).
    public var subjectTapped = false
    public var others = InlineArray<8, FractionalBox>(repeating: FractionalBox(x: 0, y: 0, width: 0, height: 0))
    /// Their centres' speeds (fractions of the picture a second), to draw them where they are.
    public var otherVelocities = InlineArray<8, SIMD2<Double>>(repeating: .zero)
    public var otherCount = 0
    /// The analysis's figures: frames seen, detections run, the last one's time in all and
    /// inside the network (OpenCV's own), in milliseconds.
    public var framesAnalysed = 0
    public var detections = 0
    public var inferenceMilliseconds = 0.0
    public var forwardMilliseconds = 0.0
    /// The time between detections, as the tracker has learnt it.
    public var detectionInterval = 0.1
    /// When the analysis published this (its clock), and the time of the frame it was working
    /// on when this was handed over (nil: it was waiting for one), so the loop can tell an
    /// analysis that is slow from one that stopped.
    public var publishedAt = 0.0
    public var analysing: Double?

    public init() {}

    /// An estimate older than this is stale: held while the analysis works on, nothing once it
    /// stopped (`subject(at:)`); on a slow machine, whose detections come seconds apart, three
    /// detections' time.
    public static let staleSeconds = 1.0
    public var staleAfter: Double { max(SubjectSnapshot.staleSeconds, 3 * detectionInterval) }

    /// Other person `index` where it is predicted to be at `now`.
    public func other(_ index: Int, at now: Double) -> FractionalBox {
        var box = others[index]
        box.x += otherVelocities[index].x * (now - time)
        box.y += otherVelocities[index].y * (now - time)
        return box
    }

    /// The subject where it is predicted to be at `now`, for the framing rule; nil without one.
    /// It is predicted at most one detection ahead (`predictionSeconds`: the next is due then,
    /// and a slow detector's speed is no forecast for seconds on) and held still beyond. Older
    /// than `staleAfter`, it is held only while the analysis is on a frame it took as soon as
    /// it published this one (a busy or slow machine, a detection slower than `staleAfter`: no
    /// news, not a lost subject); when the analysis stopped or was paused, nothing is predicted.
    public func subject(at now: Double) -> AutoFraming.Subject? {
        guard let subject else { return nil }
        let age = now - time
        if age >= staleAfter {
            guard let analysing, analysing - publishedAt < staleAfter else { return nil }
        }
        if age < predictionSeconds { return subject.subject(at: now) }
        var held = subject.subject(at: time + predictionSeconds)
        (held.velocityX, held.velocityY, held.heightVelocity) = (0, 0, 0)
        return held
    }

    /// How far ahead the subject is predicted: a detection's interval, at least `staleSeconds`.
    public var predictionSeconds: Double { max(SubjectSnapshot.staleSeconds, detectionInterval) }
}
