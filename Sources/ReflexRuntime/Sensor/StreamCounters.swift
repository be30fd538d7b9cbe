import CAllocationCounter
import ReflexCore
import ReflexHardware
import ReflexISP

/// A stream's frame counts, for the metering cadence and the log's summaries.
struct StreamCounters {
    /// Frames of this stream.
    var frames = 0
    var framesSinceSummary = 0
    /// Frames the sensor dropped since the last summary (gaps in its sequence numbers).
    var dropped = 0
    var lastSequence: UInt32?
    var lastBytes = 0
    /// Frames flagged by the driver or cut short, since the last summary and in the stream.
    var damaged = 0
    var damagedInStream = 0
    var capturesReported = 0
    /// (Set when the stream starts, on the pipeline's clock.)
    var summaryStart = 0.0
    /// This thread's heap allocations at the last summary: the frame path makes none.
    var allocationsAtSummary = reflex_thread_allocations()

    /// Counts a frame; true when it is the stream's first damaged one (`whole` false: the
    /// driver flagged it or it is cut short), which the log says at once.
    mutating func count(_ frame: CapturedFrame, whole: Bool) -> Bool {
        if let lastSequence, frame.sequence > lastSequence &+ 1 { dropped += Int(frame.sequence - lastSequence - 1) }
        lastSequence = frame.sequence
        lastBytes = frame.bytes.count
        frames += 1
        framesSinceSummary += 1
        guard !whole else { return false }
        damaged += 1
        damagedInStream += 1
        return damagedInStream == 1
    }

    /// The log's summary of the stream since the last: its rate, drops, `exposure` (the
    /// session's words for it), the controller's luma and white balance, the allocations a
    /// frame, the zoom asked for (when there is one) and every sink's losses.
    func summary(at now: Double, exposure: String, controller: ExposureController, zoom: Double, sinks: [FrameSink]) -> String {
        let allocations = reflex_thread_allocations() - allocationsAtSummary
        let rate = Double(framesSinceSummary) / (now - summaryStart)
        var line = "camera: \(framesSinceSummary) frames in \(Int((now - summaryStart).rounded())) s "
            + "(\(Int(rate.rounded())) fps), \(dropped) dropped, \(lastBytes) bytes a frame, "
            + "\(exposure), luma \(Int((controller.lastLuma * 1000).rounded()))/1000, "
            + controller.whiteBalanceDescription
            + ", \(allocations / Int64(max(framesSinceSummary, 1))) allocations a frame"
        if damaged > 0 { line += ", \(damaged) damaged skipped" }
        if abs(zoom - 1) > 0.005 { line += ", zoom " + Formatting.fixed(zoom, 2, width: 0) + "×" }
        for sink in sinks where sink.framesLost > 0 { line += ", \(sink.name) lost \(sink.framesLost) frames" }
        return line
    }

    mutating func startSummary(at now: Double) {
        framesSinceSummary = 0
        dropped = 0
        damaged = 0
        summaryStart = now
        allocationsAtSummary = reflex_thread_allocations()
    }
}
