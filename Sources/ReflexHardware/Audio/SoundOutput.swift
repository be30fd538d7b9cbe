/// Where a movie's sound plays in review: samples written without blocking, whose frames
/// really played are the playback's clock. The board's is `Speaker` (ALSA); a test gives one
/// that plays at its own clock's pace and runs dry as a held-up board's does.
public protocol SoundOutput: AnyObject {
    var sampleRate: Int { get }
    /// Frames written since the last stop.
    var framesWritten: Int { get }
    /// Writes what it takes now of `samples` (interleaved stereo) from frame `from`; the frames
    /// taken (0 when it is full).
    func write(_ samples: [Int16], from: Int) -> Int
    /// Seconds of sound written and not yet heard.
    var queuedSeconds: Double { get }
    /// Whether it is playing: false before its first start, and once it ran dry (everything
    /// written was heard and nothing came after).
    var isPlaying: Bool { get }
    /// Plays what is written.
    func start()
    /// Silences it at once (a pause, a seek, a dry spell), ready to start again from nothing.
    func stop()
}

extension SoundOutput {
    /// Seconds of sound it has played since the last stop.
    public var playedSeconds: Double { max(0, Double(framesWritten) / Double(sampleRate) - queuedSeconds) }
}

/// Opens the output named by a board (an ALSA PCM name) at a movie's rate; throws with the
/// device's reason.
public typealias SoundOutputOpener = @Sendable (_ device: String, _ sampleRate: Int) throws -> any SoundOutput
