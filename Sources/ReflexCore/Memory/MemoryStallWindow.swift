/// The triggers' thresholds applied to samples of the pressure file's running totals, for a
/// kernel that will not take a trigger from the camera (some before Linux 6.5 want
/// CAP_SYS_RESOURCE, which the sealed service does not have). Reading the file needs no
/// privilege; sampled each second, a stall is seen within a second of the trigger's moment.
public struct MemoryStallWindow: Sendable {
    /// One reading of the file: the "some" and "full" lines' `total=` (microseconds stalled
    /// since boot) at a time in seconds.
    public struct Sample: Sendable, Equatable {
        public let time: Double
        public let some: UInt64
        public let full: UInt64

        public init(time: Double, some: UInt64, full: UInt64) {
            (self.time, self.some, self.full) = (time, some, full)
        }

        /// The file's text read at `time`; nil if it has no "some" line with a total (a
        /// kernel without "full" for memory says 0).
        public init?(parsing text: String, at time: Double) {
            var totals: [Substring: UInt64] = [:]
            for line in text.split(separator: "\n") {
                let fields = line.split(separator: " ")
                guard let kind = fields.first,
                      let total = fields.first(where: { $0.hasPrefix("total=") }).flatMap({ UInt64($0.dropFirst(6)) })
                else { continue }
                totals[kind] = total
            }
            guard let some = totals["some"] else { return nil }
            self.init(time: time, some: some, full: totals["full"] ?? 0)
        }

        func total(of kind: String) -> UInt64 { kind == "full" ? full : some }
    }

    public let triggers: [MemoryPressureTrigger]
    private var samples: [Sample] = []

    public init(triggers: [MemoryPressureTrigger]) {
        self.triggers = triggers
        samples.reserveCapacity(8)
    }

    /// Takes a sample; the highest level whose trigger's stall was exceeded within its window
    /// (measured from the oldest sample still inside it), or nil.
    public mutating func add(_ sample: Sample) -> MemoryPressureLevel? {
        let longest = Double(triggers.map(\.windowMicroseconds).max() ?? 0) / 1e6
        samples.append(sample)
        // Keep one sample at or beyond the longest window: the window's start.
        while samples.count > 2, sample.time - samples[1].time >= longest { samples.removeFirst() }
        var fired: MemoryPressureLevel?
        for trigger in triggers {
            let window = Double(trigger.windowMicroseconds) / 1e6
            guard let start = samples.last(where: { sample.time - $0.time >= window })
                    ?? samples.first(where: { $0.time < sample.time }) else { continue }
            let now = sample.total(of: trigger.kind), then = start.total(of: trigger.kind)
            // A total that went backwards (never on one boot) is a new count, not a stall.
            guard now >= then, now - then > UInt64(trigger.stallMicroseconds) else { continue }
            fired = max(fired ?? trigger.level, trigger.level)
        }
        return fired
    }
}
