/// What the movie thread tells the interface: whether it records, for how long, how long
/// the card lasts, and why the last recording stopped when it stopped by itself.
public struct MovieReport: Sendable, Equatable {
    public var recording = false
    /// The recording's length so far (its frames at its rate), seconds.
    public var elapsedSeconds = 0.0
    /// Recording time the card has left beyond its reserve (nil: not known yet).
    public var secondsLeft: Int?
    public var framesRecorded = 0
    /// Frames the sensor gave that the movie lost (the encoder fell behind).
    public var framesDropped = 0
    /// Recordings saved since the camera started, and the last one's file.
    public var saved = 0
    public var lastPath: String?
    /// The movie being recorded, under the name it will have (not yet whole: not offered).
    public var recordingPath: String?
    /// Why the last recording stopped by itself, or could not start (shown, then cleared by
    /// the next start).
    public var message: String?
    /// Counts the messages, so the same one said twice is shown twice.
    public var messagesSaid = 0
    /// libavcodec's name of the encoder ("libx264", "h264_v4l2m2m").
    public var encoder = ""

    public init() {}
}
