import ReflexCore
import Testing

@Suite struct InputLatencyRingTests {
    @Test func percentilesOfTheWaitsSinceACopy() {
        var ring = InputLatencyRing()
        #expect(ring.summary().events == 0)
        for ms in 1...100 { ring.record(seconds: Double(ms) / 1000) }
        let all = ring.summary()
        #expect(all.events == 100 && all.p50 == 50 && all.p99 == 99 && all.maximum == 100)
        var earlier = InputLatencyRing()
        earlier.copy(from: ring)
        ring.record(seconds: 0.012)
        ring.record(seconds: 0.020)
        let since = ring.summary(since: earlier)
        #expect(since.events == 2 && since.p50 == 12 && since.maximum == 20)
        #expect(since.description == "input to screen over 2 events: p50 12.0 ms, p99 20.0 ms, max 20.0 ms")
    }

    @Test func aFullRingKeepsTheNewest() {
        var ring = InputLatencyRing()
        for _ in 0..<InputLatencyRing.capacity { ring.record(seconds: 0.5) }
        for _ in 0..<InputLatencyRing.capacity { ring.record(seconds: 0.010) }
        #expect(ring.summary().maximum == 10)
    }
}
