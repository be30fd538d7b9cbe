/// A dial's feel on a rotary encoder: a detent is a stop when turned slowly; a fast spin
/// takes more stops a detent (as Fujifilm's and Sony's command dials do), never past a bound
/// (the model stops there and bumps). Pure: the detents' kernel times come in.
public struct DialAcceleration: Sendable, Equatable {
    /// Detents closer together than these take 2 and 3 stops each (about 8 and 16 detents a
    /// second: a flick of the thumb, not a careful turn).
    public static let doubleBelow = 0.12
    public static let tripleBelow = 0.06

    private var lastDetent = -Double.infinity
    private var lastDirection = 0

    public init() {}

    /// The stops for `detents` detents (signed) arriving at `time`.
    public mutating func stops(forDetents detents: Int, at time: Double) -> Int {
        guard detents != 0 else { return 0 }
        let direction = detents > 0 ? 1 : -1
        let interval = (time - lastDetent) / Double(detents.magnitude)
        // A change of direction is a careful correction: one stop a detent.
        let each = direction != lastDirection ? 1
            : interval < DialAcceleration.tripleBelow ? 3 : interval < DialAcceleration.doubleBelow ? 2 : 1
        lastDetent = time
        lastDirection = direction
        return detents * each
    }
}
