/// How long an interval run's timelapse waits for the run's photos to be saved before it is
/// made of those that were: `seconds` from the run's end, and again from each photo saved.
/// (A slow board saves them minutes behind the run yet steadily: a wait counted from the
/// run's end alone left its last photos out. A photo that failed is never saved, and the
/// wait ends `seconds` after the one before it.)
public struct RunPhotosPatience: Sendable {
    public static let defaultSeconds = 60.0
    public let seconds: Double
    private var savedSeen: Int
    private var deadline: Double

    /// The run ended at `now` with `saved` of its photos saved.
    public init(saved: Int, now: Double, seconds: Double = RunPhotosPatience.defaultSeconds) {
        self.seconds = seconds
        savedSeen = saved
        deadline = now + seconds
    }

    /// Whether to wait on at `now`, with `saved` of the run's `wanted` photos saved.
    public mutating func waitsOn(saved: Int, of wanted: Int, now: Double) -> Bool {
        guard saved < wanted else { return false }
        if saved > savedSeen {
            savedSeen = saved
            deadline = now + seconds
        }
        return now < deadline
    }
}
