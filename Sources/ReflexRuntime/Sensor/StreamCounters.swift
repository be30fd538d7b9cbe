import CAllocationCounter
import ReflexHardware

/// A stream's frame counts, for the metering cadence and the log's summaries.
struct StreamCounters {
    /// Frames of this stream.
    var frames = 0
    var framesSinceSummary = 0
    /// Frames the sensor dropped since the last summary (gaps in its sequence numbers).
    var dropped = 0
    var lastSequence: UInt32?
    var lastBytes = 0
    var capturesReported = 0
    /// (Set when the stream starts, on the pipeline's clock.)
    var summaryStart = 0.0
    /// This thread's heap allocations at the last summary: the frame path makes none.
    var allocationsAtSummary = reflex_thread_allocations()

    mutating func count(_ frame: CapturedFrame) {
        if let lastSequence, frame.sequence > lastSequence &+ 1 { dropped += Int(frame.sequence - lastSequence - 1) }
        lastSequence = frame.sequence
        lastBytes = frame.bytes.count
        frames += 1
        framesSinceSummary += 1
    }

    mutating func startSummary(at now: Double) {
        framesSinceSummary = 0
        dropped = 0
        summaryStart = now
        allocationsAtSummary = reflex_thread_allocations()
    }
}
