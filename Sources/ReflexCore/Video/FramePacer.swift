/// Which sensor frames a recording keeps, and where each goes in the movie: a frame is kept
/// when it falls in a frame slot of the recording's rate (counted from the first frame by
/// its capture time) that has none yet. A 60 fps sensor gives every other frame to a 30 fps
/// movie, a 30 fps one every frame (its jitter rounds away), and a frame the sensor dropped
/// leaves its slot empty (the frame before it lasts two), so the movie keeps real time.
public struct FramePacer: Sendable {
    public let framesPerSecond: Int
    private var firstNanoseconds: Int64?
    private var lastSlot: Int64 = -1

    public init(framesPerSecond: Int) { self.framesPerSecond = framesPerSecond }

    /// The movie frame a sensor frame captured at `nanoseconds` becomes, or nil to skip it.
    public mutating func slot(forFrameAt nanoseconds: Int64) -> Int64? {
        guard let first = firstNanoseconds else {
            firstNanoseconds = nanoseconds
            lastSlot = 0
            return 0
        }
        let elapsed = nanoseconds - first
        // The nearest slot (half a slot either way).
        let slot = (2 * elapsed * Int64(framesPerSecond) + 1_000_000_000) / 2_000_000_000
        guard slot > lastSlot else { return nil }
        lastSlot = slot
        return slot
    }

    /// When the first frame was captured (the movie's time zero; the sound's too).
    public var startNanoseconds: Int64? { firstNanoseconds }

    /// Starts again (a new recording).
    public mutating func reset() { (firstNanoseconds, lastSlot) = (nil, -1) }
}
