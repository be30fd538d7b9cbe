/// The realtime loop's record of its frames: how long each took from vblank to flip queued,
/// and which vblanks went by without a new frame on the panel. A fixed ring, written once a
/// frame without allocating; summaries are made elsewhere from a copy.
public struct FrameTimeRing: Sendable {
    public static let defaultCapacity = 3600

    public private(set) var capacity: Int
    /// Microseconds per frame, oldest overwritten first.
    public private(set) var durations: [UInt32]
    /// Of those, the microseconds the loop's thread really ran (its CPU time): the rest it
    /// was not running (blocked in the kernel, interrupted, or its CPU taken by a virtual
    /// machine's host where the kernel accounts steal time).
    public private(set) var runningDurations: [UInt32]
    public private(set) var recorded = 0
    public private(set) var missedVblanks = 0
    public private(set) var presented = 0
    /// Heap allocations made while rendering, and in how many frames (0 once running).
    public private(set) var allocations = 0
    public private(set) var allocatingFrames = 0
    /// Seconds (monotonic) of the first and latest frames recorded, for the frame rate.
    public private(set) var firstTime: Double?
    public private(set) var latestTime = 0.0

    public init(capacity: Int = FrameTimeRing.defaultCapacity) {
        precondition(capacity > 0, "a ring holds at least one frame")
        self.capacity = capacity
        durations = [UInt32](repeating: 0, count: capacity)
        runningDurations = [UInt32](repeating: 0, count: capacity)
    }

    /// One frame presented at `time`, having taken `microseconds` (of which the thread ran
    /// `runningMicroseconds`; all of them if not given); `missed` vblanks passed since the
    /// previous one without a frame (a deadline the loop did not meet).
    public mutating func record(microseconds: Int, runningMicroseconds: Int? = nil, at time: Double, missed: Int = 0,
                                allocations: Int = 0) {
        self.allocations += allocations
        if allocations > 0 { allocatingFrames += 1 }
        durations[recorded % capacity] = UInt32(clamping: microseconds)
        runningDurations[recorded % capacity] = UInt32(clamping: min(runningMicroseconds ?? microseconds, microseconds))
        recorded += 1
        presented += 1
        missedVblanks += missed
        if firstTime == nil { firstTime = time }
        latestTime = time
    }

    /// The longest of the newest `count` frames, in seconds (no allocation: the loop asks it
    /// every frame).
    public func recentMaximum(frames count: Int) -> Double {
        var longest: UInt32 = 0
        for index in max(recorded - min(count, capacity), 0)..<recorded { longest = max(longest, durations[index % capacity]) }
        return Double(longest) / 1e6
    }

    /// Copies `other` into this ring's own storage (no allocation when the capacities match).
    public mutating func copy(from other: FrameTimeRing) {
        if durations.count != other.durations.count {
            durations = other.durations
            runningDurations = other.runningDurations
            capacity = other.capacity
        } else {
            FrameTimeRing.copy(other.durations, into: &durations)
            FrameTimeRing.copy(other.runningDurations, into: &runningDurations)
        }
        recorded = other.recorded
        missedVblanks = other.missedVblanks
        allocations = other.allocations
        allocatingFrames = other.allocatingFrames
        presented = other.presented
        firstTime = other.firstTime
        latestTime = other.latestTime
    }

    private static func copy(_ source: [UInt32], into target: inout [UInt32]) {
        target.withUnsafeMutableBufferPointer { target in
            source.withUnsafeBufferPointer { source in target.baseAddress!.update(from: source.baseAddress!, count: source.count) }
        }
    }

    public struct Summary: Sendable, Equatable, CustomStringConvertible {
        public let frames: Int
        public let framesPerSecond: Double
        public let p50: Double
        public let p99: Double
        public let maximum: Double
        /// The same percentiles of the time the thread ran.
        public let runningP50: Double
        public let runningP99: Double
        public let runningMaximum: Double
        public let missedVblanks: Int
        public let allocations: Int
        public let allocatingFrames: Int

        public var description: String {
            "\(frames) frames, \(Self.decimal(framesPerSecond, 1)) fps, frame time p50 \(Self.decimal(p50, 2)) ms, "
                + "p99 \(Self.decimal(p99, 2)) ms, max \(Self.decimal(maximum, 2)) ms (running p50 "
                + "\(Self.decimal(runningP50, 2)), p99 \(Self.decimal(runningP99, 2)), max \(Self.decimal(runningMaximum, 2)) ms), "
                + "\(missedVblanks) missed vblanks, "
                + "\(allocations) allocations in \(allocatingFrames) frames"
        }

        static func decimal(_ value: Double, _ places: Int) -> String {
            var scale = 1
            for _ in 0..<places { scale *= 10 }
            let scaled = Int((value * Double(scale)).rounded())
            let fraction = String(scaled % scale)
            return "\(scaled / scale)." + String(repeating: "0", count: places - fraction.count) + fraction
        }
    }

    /// Percentiles over the frames still in the ring (nearest-rank), times in milliseconds.
    public func summary() -> Summary {
        summary(ofLast: min(recorded, capacity), missed: missedVblanks, allocations: allocations,
                allocatingFrames: allocatingFrames, frames: presented, from: firstTime, intervals: presented - 1)
    }

    /// The same over the frames recorded since `earlier`, a copy of this ring made before (as
    /// many of them as the ring still holds): one stretch of the run, a burst being saved say.
    public func summary(since earlier: FrameTimeRing) -> Summary {
        summary(ofLast: min(recorded - earlier.recorded, capacity), missed: missedVblanks - earlier.missedVblanks,
                allocations: allocations - earlier.allocations, allocatingFrames: allocatingFrames - earlier.allocatingFrames,
                frames: presented - earlier.presented, from: earlier.recorded > 0 ? earlier.latestTime : firstTime,
                intervals: earlier.recorded > 0 ? presented - earlier.presented : presented - 1)
    }

    /// Percentiles of the newest `count` frames (of `frames` presented); the rate is
    /// `intervals` frame intervals from `start` to the latest frame.
    private func summary(ofLast count: Int, missed: Int, allocations: Int, allocatingFrames: Int, frames: Int,
                         from start: Double?, intervals: Int) -> Summary {
        guard count > 0 else {
            return Summary(frames: 0, framesPerSecond: 0, p50: 0, p99: 0, maximum: 0, runningP50: 0, runningP99: 0,
                           runningMaximum: 0, missedVblanks: missed, allocations: allocations,
                           allocatingFrames: allocatingFrames)
        }
        let newest = (recorded - count)..<recorded
        let sorted = newest.map { durations[$0 % capacity] }.sorted()
        let running = newest.map { runningDurations[$0 % capacity] }.sorted()
        func percentile(_ p: Double, _ sorted: [UInt32]) -> Double {
            let rank = max(1, Int((p * Double(count)).rounded(.up)))
            return Double(sorted[rank - 1]) / 1000
        }
        let span = latestTime - (start ?? latestTime)
        let rate = span > 0 ? Double(intervals) / span : 0
        return Summary(frames: frames, framesPerSecond: rate, p50: percentile(0.5, sorted), p99: percentile(0.99, sorted),
                       maximum: Double(sorted[count - 1]) / 1000, runningP50: percentile(0.5, running),
                       runningP99: percentile(0.99, running), runningMaximum: Double(running[count - 1]) / 1000,
                       missedVblanks: missed, allocations: allocations, allocatingFrames: allocatingFrames)
    }
}
