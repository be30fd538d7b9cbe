/// The timelapse thread's news for the screen: the movie being made (its progress), and the
/// last one made or refused.
public struct TimelapseReport: Sendable, Equatable {
    public var making = false
    public var framesDone = 0
    public var framesTotal = 0
    /// Movies made so far, and the newest's name ("RFLX0312.MP4"), frames and length.
    public var made = 0
    public var lastName: String?
    public var lastFrames = 0
    public var lastSeconds = 0.0
    /// Runs whose timelapse could not be made, and why the newest could not.
    public var refused = 0
    public var lastRefusal: String?

    public init() {}

    /// The progress in whole percent while one is made.
    public var percent: Int? { making && framesTotal > 0 ? framesDone * 100 / framesTotal : nil }
}
