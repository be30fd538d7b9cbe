/// The realtime loop's record of its frames: how long each took from vblank to flip queued,
/// and which vblanks went by without a new frame on the panel. A fixed ring, written once a
/// frame without allocating; summaries are made elsewhere from a copy.
public struct FrameTimeRing: Sendable {
    public static let defaultCapacity = 3600

    public private(set) var capacity: Int
    /// Microseconds per frame, oldest overwritten first.
    public private(set) var durations: [UInt32]
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
    }

    /// One frame presented at `time`, having taken `microseconds`; `missed` vblanks passed
    /// since the previous one without a frame (a deadline the loop did not meet).
    public mutating func record(microseconds: Int, at time: Double, missed: Int = 0, allocations: Int = 0) {
        self.allocations += allocations
        if allocations > 0 { allocatingFrames += 1 }
        durations[recorded % capacity] = UInt32(clamping: microseconds)
        recorded += 1
        presented += 1
        missedVblanks += missed
        if firstTime == nil { firstTime = time }
        latestTime = time
    }

    /// Copies `other` into this ring's own storage (no allocation when the capacities match).
    public mutating func copy(from other: FrameTimeRing) {
        if durations.count != other.durations.count {
            durations = other.durations
            capacity = other.capacity
        } else {
            durations.withUnsafeMutableBufferPointer { target in
                other.durations.withUnsafeBufferPointer { source in
                    target.baseAddress!.update(from: source.baseAddress!, count: source.count)
                }
            }
        }
        recorded = other.recorded
        missedVblanks = other.missedVblanks
        allocations = other.allocations
        allocatingFrames = other.allocatingFrames
        presented = other.presented
        firstTime = other.firstTime
        latestTime = other.latestTime
    }

    public struct Summary: Sendable, Equatable, CustomStringConvertible {
        public let frames: Int
        public let framesPerSecond: Double
        public let p50: Double
        public let p99: Double
        public let maximum: Double
        public let missedVblanks: Int
        public let allocations: Int
        public let allocatingFrames: Int

        public var description: String {
            "\(frames) frames, \(Self.decimal(framesPerSecond, 1)) fps, frame time p50 \(Self.decimal(p50, 2)) ms, "
                + "p99 \(Self.decimal(p99, 2)) ms, max \(Self.decimal(maximum, 2)) ms, \(missedVblanks) missed vblanks, "
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
        let count = min(recorded, capacity)
        guard count > 0 else {
            return Summary(frames: 0, framesPerSecond: 0, p50: 0, p99: 0, maximum: 0, missedVblanks: missedVblanks,
                           allocations: allocations, allocatingFrames: allocatingFrames)
        }
        let sorted = durations[0..<count].sorted()
        func percentile(_ p: Double) -> Double {
            let rank = max(1, Int((p * Double(count)).rounded(.up)))
            return Double(sorted[rank - 1]) / 1000
        }
        let span = latestTime - (firstTime ?? latestTime)
        let rate = span > 0 ? Double(presented - 1) / span : 0
        return Summary(frames: presented, framesPerSecond: rate, p50: percentile(0.5), p99: percentile(0.99),
                       maximum: Double(sorted[count - 1]) / 1000, missedVblanks: missedVblanks,
                       allocations: allocations, allocatingFrames: allocatingFrames)
    }
}
