/// One period of the microphone's samples (16-bit, interleaved), in memory allocated once
/// and passed between the audio thread and the movie thread, with the capture time of its
/// first sample on the kernel's monotonic clock (the clock the video frames are stamped with).
public final class MicrophoneChunk: @unchecked Sendable {
    public let samples: UnsafeMutablePointer<Int16>
    public let capacity: Int
    /// Samples a channel held now.
    public var count = 0
    public var capturedAtNanoseconds: Int64 = 0

    public init(frames: Int, channels: Int) {
        capacity = frames
        samples = .allocate(capacity: frames * channels)
        samples.initialize(repeating: 0, count: frames * channels)
    }

    deinit { samples.deallocate() }
}
