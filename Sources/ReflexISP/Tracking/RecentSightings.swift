/// Where a person was found the last few times (their box's centres), kept in place without
/// allocating: how far they have gone between sightings, however far apart the sightings are.
/// (On a slow board, with detections tens of seconds apart, a skier walking to and fro is found
/// at a new place each time while an average of those places barely moves.)
struct RecentSightings: Sendable, Equatable {
    /// The sightings kept: enough that a mover is seen to have moved within a few of them.
    static let capacity = 4
    private var xs = SIMD4<Double>(repeating: 0), ys = SIMD4<Double>(repeating: 0)
    private var count = 0, next = 0

    init(centreX: Double, centreY: Double) { record(centreX: centreX, centreY: centreY) }

    mutating func record(centreX: Double, centreY: Double) {
        xs[next] = centreX
        ys[next] = centreY
        next = (next + 1) % Self.capacity
        count = min(count + 1, Self.capacity)
    }

    /// The farthest of the sightings from `x`, `y`, in the picture's heights (`aspect`: its
    /// width over its height, so across and up count alike).
    func farthest(fromX x: Double, y: Double, aspect: Double) -> Double {
        var farthest = 0.0
        for index in 0..<count {
            let dx = (xs[index] - x) * aspect, dy = ys[index] - y
            farthest = max(farthest, (dx * dx + dy * dy).squareRoot())
        }
        return farthest
    }
}
