/// Counts how often a zoom changes direction (hunting): a change counts once the zoom has
/// moved at least `threshold` stops one way and then as far the other, so the jitter of a
/// zoom standing still is not a reversal. The default, a tenth of a stop (7 %), is about the
/// least change of framing a viewer sees as the zoom moving.
public struct ZoomReversalCounter: Sendable {
    public let thresholdStops: Double
    public private(set) var reversals = 0
    /// +1 zooming in, -1 out (the way the zoom last moved at least the threshold), 0 not yet
    /// moved far enough to say.
    public private(set) var direction = 0
    /// The zoom (in stops) where the current run of movement began, and the furthest it reached.
    private var turningPoint: Double?

    public init(thresholdStops: Double = 0.1) { self.thresholdStops = thresholdStops }

    public mutating func record(zoom: Double) {
        let stops = FastMath.log2(zoom)
        guard let point = turningPoint else {
            turningPoint = stops
            return
        }
        let moved = stops - point
        if direction == 0 {
            if abs(moved) >= thresholdStops { direction = moved > 0 ? 1 : -1; turningPoint = stops }
        } else if Double(direction) * moved > 0 {
            turningPoint = stops  // further the same way: the turning point follows
        } else if abs(moved) >= thresholdStops {
            reversals += 1
            direction = -direction
            turningPoint = stops
        }
    }
}
