/// How long the photographer waits to see what a touch, a turn or a key did: from the input
/// event's kernel time to the completed page flip of the first frame showing its effect. A
/// fixed ring, written by the realtime loop without allocating; summaries are made elsewhere
/// from a copy. (Seed: the preview answers within 16 ms; the target is a frame and 2 ms.)
public struct InputLatencyRing: Sendable {
    public static let capacity = 1024
    public private(set) var microseconds = [UInt32](repeating: 0, count: InputLatencyRing.capacity)
    public private(set) var recorded = 0

    public init() {}

    public mutating func record(seconds: Double) {
        microseconds[recorded % InputLatencyRing.capacity] = UInt32(clamping: Int((max(seconds, 0) * 1e6).rounded()))
        recorded += 1
    }

    /// Copies `other` into this ring's storage (no allocation).
    public mutating func copy(from other: InputLatencyRing) {
        for i in 0..<InputLatencyRing.capacity { microseconds[i] = other.microseconds[i] }
        recorded = other.recorded
    }

    public struct Summary: Sendable, Equatable, CustomStringConvertible {
        public let events: Int
        /// Milliseconds (nearest rank).
        public let p50: Double, p99: Double, maximum: Double

        public var description: String {
            events == 0 ? "no input shown yet"
                : "input to screen over \(events) events: p50 \(Formatting.fixed(p50, 1)) ms, "
                    + "p99 \(Formatting.fixed(p99, 1)) ms, max \(Formatting.fixed(maximum, 1)) ms"
        }
    }

    /// Over the events still in the ring, or those recorded since `earlier` (a copy made before).
    public func summary(since earlier: InputLatencyRing? = nil) -> Summary {
        let count = min(recorded - (earlier?.recorded ?? 0), InputLatencyRing.capacity)
        guard count > 0 else { return Summary(events: 0, p50: 0, p99: 0, maximum: 0) }
        let sorted = ((recorded - count)..<recorded).map { microseconds[$0 % InputLatencyRing.capacity] }.sorted()
        func rank(_ p: Double) -> Double { Double(sorted[max(1, Int((p * Double(count)).rounded(.up))) - 1]) / 1000 }
        return Summary(events: count, p50: rank(0.5), p99: rank(0.99), maximum: Double(sorted[count - 1]) / 1000)
    }
}
