/// One coordinate of a moving thing (a box's centre, its height), estimated from noisy
/// measurements as a position moving at a constant speed, the speed changed by random
/// accelerations: a two-state Kalman filter. A box's three coordinates move independently
/// of each other, so three of these replace a six-state filter and its matrices.
struct MotionAxis: Sendable, Equatable {
    private(set) var position: Double
    private(set) var velocity: Double
    /// The estimate's covariance: position, position × velocity, velocity.
    private var positionVariance: Double
    private var crossVariance = 0.0
    private var velocityVariance: Double

    init(position: Double, velocity: Double = 0, positionVariance: Double, velocityVariance: Double) {
        self.position = position
        self.velocity = velocity
        self.positionVariance = positionVariance
        self.velocityVariance = velocityVariance
    }

    /// Where it will be `seconds` from the estimate's time, without changing the estimate.
    func predicted(after seconds: Double) -> Double { position + velocity * seconds }

    /// Moves the estimate `seconds` on; `acceleration` is the variance of the random
    /// acceleration a second (how much the speed may have changed meanwhile).
    mutating func predict(by seconds: Double, acceleration: Double) {
        let t = max(seconds, 0)
        position += velocity * t
        positionVariance += t * (2 * crossVariance + t * velocityVariance) + acceleration * t * t * t / 3
        crossVariance += t * velocityVariance + acceleration * t * t / 2
        velocityVariance += acceleration * t
    }

    /// Takes in a measurement of the position with `variance`.
    mutating func correct(with measurement: Double, variance: Double) {
        let innovation = positionVariance + variance
        guard innovation > 0 else { return }
        let positionGain = positionVariance / innovation, velocityGain = crossVariance / innovation
        let residual = measurement - position
        position += positionGain * residual
        velocity += velocityGain * residual
        velocityVariance -= velocityGain * crossVariance
        crossVariance *= 1 - positionGain
        positionVariance *= 1 - positionGain
    }

    /// Slows the estimated speed (a coasting estimate should not run away).
    mutating func damp(velocityBy factor: Double) { velocity *= factor }
}
