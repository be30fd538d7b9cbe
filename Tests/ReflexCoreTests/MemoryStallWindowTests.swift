import ReflexCore
import Testing

/// The triggers' thresholds applied to the pressure file's totals read each second: how the
/// sealed service, which may set no trigger on a kernel before 6.5, still sees pressure.
@Suite struct MemoryStallWindowTests {
    static func sample(_ time: Double, some: UInt64, full: UInt64 = 0) -> MemoryStallWindow.Sample {
        MemoryStallWindow.Sample(time: time, some: some, full: full)
    }

    @Test func theFilesTotalsAreRead() {
        let text = "some avg10=1.50 avg60=0.30 avg300=0.06 total=123456\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=789\n"
        #expect(MemoryStallWindow.Sample(parsing: text, at: 5) == Self.sample(5, some: 123_456, full: 789))
        #expect(MemoryStallWindow.Sample(parsing: "some avg10=0.00 total=7\n", at: 1) == Self.sample(1, some: 7))
        #expect(MemoryStallWindow.Sample(parsing: "", at: 1) == nil)
        #expect(MemoryStallWindow.Sample(parsing: "some avg10=0.00 total=x\n", at: 1) == nil)
    }

    @Test func aStallBeyondATriggersThresholdInItsWindowRaisesItsLevel() {
        var window = MemoryStallWindow(triggers: MemoryPressureTrigger.camera)
        #expect(window.add(Self.sample(0, some: 1_000_000)) == nil, "a first reading is no stall")
        #expect(window.add(Self.sample(1, some: 1_100_000)) == nil, "100 ms in a second: under 200 ms")
        #expect(window.add(Self.sample(2, some: 1_250_000)) == .moderate, "250 ms in two seconds")
        #expect(window.add(Self.sample(3, some: 1_300_000)) == nil, "200 ms from 1 s to 3 s: not more than the threshold")
        #expect(window.add(Self.sample(4, some: 2_200_000)) == .severe, "950 ms in two seconds")
        #expect(window.add(Self.sample(5, some: 2_300_000)) == .severe, "1000 ms from 3 s to 5 s")
        #expect(window.add(Self.sample(6, some: 2_300_000)) == nil, "100 ms from 4 s to 6 s")
    }

    /// Readings late (a busy machine) still measure over at least the window; a "full"
    /// trigger reads the full line; a total that went back is no stall.
    @Test func lateReadingsFullStallsAndACountStartedAgain() {
        let full = MemoryPressureTrigger(level: .severe, kind: "full", stallMicroseconds: 100_000, windowMicroseconds: 2_000_000)
        var window = MemoryStallWindow(triggers: [MemoryPressureTrigger.camera[0], full])
        #expect(window.add(Self.sample(10, some: 0, full: 0)) == nil)
        #expect(window.add(Self.sample(13.5, some: 150_000, full: 0)) == nil, "150 ms over 3.5 s")
        #expect(window.add(Self.sample(14, some: 400_000, full: 150_000)) == .severe, "the full line's 150 ms")
        #expect(window.add(Self.sample(16, some: 10, full: 0)) == nil, "totals that went back: a new count")
        for second in 17...200 { _ = window.add(Self.sample(Double(second), some: 10, full: 0)) }
        #expect(window.add(Self.sample(201, some: 300_000, full: 0)) == .moderate, "still measured after many readings")
    }
}
