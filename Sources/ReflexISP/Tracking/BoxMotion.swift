import ReflexCore

/// A person's box moving through the picture: its centre and height each a `MotionAxis`, its
/// width following its height at the aspect last measured. Noise scales with the box's height,
/// so a person far away (small) and one near (large) are followed alike.
struct BoxMotion: Sendable, Equatable {
    private var centreX: MotionAxis
    private var centreY: MotionAxis
    private var height: MotionAxis
    /// Width over height, smoothed: a walker's swinging arms change it, not their distance.
    private var aspect: Double

    /// Random acceleration, in box heights a second, each second: a skier turns hard, but the
    /// estimate of its speed must not follow every box's jitter.
    static let accelerationHeights = 2.5
    /// A detector's box is off by about this much of its height.
    static let detectionErrorHeights = 0.08

    /// `across`: the speed across the picture it is known to have (a person seen again).
    init(box: FractionalBox, across: Double = 0) {
        let h = max(box.height, 1e-4)
        let position = (0.1 * h) * (0.1 * h), velocity = (2 * h) * (2 * h)
        centreX = MotionAxis(position: box.centreX, velocity: across, positionVariance: position, velocityVariance: velocity)
        centreY = MotionAxis(position: box.centreY, positionVariance: position, velocityVariance: velocity)
        height = MotionAxis(position: h, positionVariance: position, velocityVariance: velocity / 4)
        aspect = box.width / h
    }

    var box: FractionalBox { box(after: 0) }

    /// The box `seconds` after the estimate's time.
    func box(after seconds: Double) -> FractionalBox {
        let h = max(height.predicted(after: seconds), 1e-4)
        return FractionalBox(centreX: centreX.predicted(after: seconds), centreY: centreY.predicted(after: seconds),
                        width: h * aspect, height: h)
    }

    /// The centre's speed, in fractions of the picture a second.
    var velocity: (x: Double, y: Double) { (centreX.velocity, centreY.velocity) }
    /// How fast the height changes, in fractions of the picture a second.
    var heightVelocity: Double { height.velocity }

    mutating func predict(by seconds: Double) {
        let h = max(height.position, 1e-4)
        let acceleration = (BoxMotion.accelerationHeights * h) * (BoxMotion.accelerationHeights * h)
        centreX.predict(by: seconds, acceleration: acceleration)
        centreY.predict(by: seconds, acceleration: acceleration)
        height.predict(by: seconds, acceleration: acceleration / 4)
    }

    /// A measured box; `errorHeights` is how far off it may be, in its heights.
    mutating func correct(with box: FractionalBox, errorHeights: Double = BoxMotion.detectionErrorHeights) {
        let h = max(box.height, 1e-4)
        let variance = (errorHeights * h) * (errorHeights * h)
        centreX.correct(with: box.centreX, variance: variance)
        centreY.correct(with: box.centreY, variance: variance)
        height.correct(with: h, variance: variance)
        aspect += 0.3 * (box.width / h - aspect)
    }

    /// Seen again after a while hidden: the box starts again where it is seen, keeping the
    /// speed across it had (the jump at the reappearance is not a speed).
    mutating func restart(at box: FractionalBox) {
        self = BoxMotion(box: box, across: centreX.velocity)
    }

    /// Nothing measured for a while: the height stops growing or shrinking on its own, and the
    /// vertical drift fades (a person hidden keeps going across, seldom up or down).
    mutating func coast() {
        height.damp(velocityBy: 0.5)
        centreY.damp(velocityBy: 0.5)
    }
}
