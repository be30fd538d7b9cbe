/// Where the microphone's samples go in a movie, on the clock the video frames are stamped
/// with (the kernel's monotonic clock): each chunk of samples comes with the time of its
/// first sample, the movie's time zero is its first video frame's capture time. Samples from
/// before time zero are dropped; after that the samples run on, one after the other, and the
/// clock is only followed again when they drift from it by more than `resyncSeconds` (the
/// device lost samples in an overrun, or its clock runs apart), so the sound never stutters
/// over a timestamp's jitter.
///
/// A first chunk stamped further from time zero than `sameClockSeconds` cannot share the
/// frames' clock (a sensor driver stamping with another clock, a test's clock): its sound
/// then starts with the movie and runs on from there, instead of behind hours of silence.
public struct AudioTimeline: Sendable {
    public let sampleRate: Int
    public static let resyncSeconds = 0.1
    /// Far beyond the microphone's queue and buffer (under a second) and a stalled start,
    /// far below the distance between two clocks (a boot's uptime, decades to the epoch).
    public static let sameClockSeconds = 10.0
    /// Seconds from the frames' clock to the microphone's, when they were found apart.
    public private(set) var clocksApartSeconds: Double?
    /// Samples added to a chunk's place measured by its stamp (0 on one clock).
    private var clockOffset: Int64 = 0
    private var startNanoseconds: Int64?
    /// The sample index (from time zero) the next kept sample has.
    private var nextIndex: Int64?

    public init(sampleRate: Int) { self.sampleRate = sampleRate }

    /// The movie's time zero (its first video frame's capture time).
    public mutating func start(atNanoseconds nanoseconds: Int64) { startNanoseconds = nanoseconds }

    /// For a chunk of `count` samples whose first was captured at `nanoseconds`: how many to
    /// skip at its start, and the index in the movie (samples from time zero) of the first one
    /// kept; nil to drop it all (no time zero yet, or the whole chunk is before it).
    public mutating func place(count: Int, capturedAt nanoseconds: Int64) -> (skip: Int, index: Int64)? {
        guard let start = startNanoseconds, count > 0 else { return nil }
        // The chunk's first sample on the movie's clock, in samples (rounded to the nearest).
        var measured = Int64((Double(nanoseconds - start) * Double(sampleRate) / 1e9).rounded())
        if nextIndex == nil, clocksApartSeconds == nil,
           abs(Double(nanoseconds - start)) > AudioTimeline.sameClockSeconds * 1e9 {
            clocksApartSeconds = Double(nanoseconds - start) / 1e9
            clockOffset = -measured
        }
        measured += clockOffset
        var first = measured
        if let next = nextIndex, abs(measured - next) <= Int64(Double(sampleRate) * AudioTimeline.resyncSeconds) {
            first = next
        }
        let skip = first < 0 ? Int(min(-first, Int64(count))) : 0
        guard skip < count else { return nil }
        let index = first + Int64(skip)
        // (After a resync the next index never goes back over samples already placed.)
        nextIndex = max(index + Int64(count - skip), nextIndex ?? 0)
        return (skip, index)
    }
}
