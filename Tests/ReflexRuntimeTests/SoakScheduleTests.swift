import ReflexBench
import ReflexCore
import Testing

/// `reflex bench soak`'s photographer: what is done when, whatever the moments it is asked at.
@Suite("Soak schedule")
struct SoakScheduleTests {
    @Test func aCycleHasAMovieThenPhotosInEveryFormatABurstAndTheCardFilledEmptiedAndRead() throws {
        var schedule = SoakSchedule()
        let cycle = schedule.due(until: SoakSchedule.cycleSeconds)
        let records = cycle.filter { $0.action == .record }.map(\.at)
        #expect(records == [0, 60], "a movie of a minute")
        let photos = cycle.compactMap { if case .photo = $0.action { $0.at } else { nil } }
        #expect(photos.allSatisfy { $0 > 60 }, "no photo while the movie runs")
        let formats = cycle.compactMap { if case .photo(let format) = $0.action { format } else { nil } }
        #expect(formats.count == 46)
        #expect(Array(formats.prefix(CaptureFormat.allCases.count)) == CaptureFormat.allCases, "every format in turn")
        let bursts = cycle.filter { $0.action == .shutter(pressed: true) || $0.action == .shutter(pressed: false) }
        try #require(bursts.map(\.action) == [.shutter(pressed: true), .shutter(pressed: false)])
        #expect(bursts[1].at - bursts[0].at == 1, "held a second")
        let card = cycle.filter { [.fillCard, .emptyCard, .checkCard].contains($0.action) }.map(\.action)
        #expect(card == [.fillCard, .emptyCard, .checkCard])
        #expect(cycle.contains { $0.action == .dial(wheel: 1, detents: 1) })
        #expect(cycle.map(\.at) == cycle.map(\.at).sorted(), "in order")
    }

    /// Asked every 20 ms (the soak's pace), every 7 s, or once: the same actions at the same
    /// seconds, each once, across cycles.
    @Test(arguments: [0.02, 7.0, 1_000.0])
    func everyActionIsHandedOutOnceWhateverThePace(step: Double) {
        let end = 2.5 * SoakSchedule.cycleSeconds
        var once = SoakSchedule()
        let all = once.due(until: end)
        var paced = SoakSchedule()
        var handed: [(at: Double, action: SoakAction)] = []
        var now = 0.0
        while now < end {
            now = min(end, now + step)
            handed += paced.due(until: now)
        }
        #expect(handed.map(\.at) == all.map(\.at))
        #expect(handed.map(\.action) == all.map(\.action))
        #expect(all.filter { $0.action == .record }.map(\.at) == [0, 60, 300, 360, 600, 660])
        #expect(paced.due(until: end).isEmpty, "nothing twice")
    }

    @Test func anHoursPlanIsTwelveCycles() {
        #expect(SoakSchedule.count(over: 3600) { if case .photo = $0 { true } else { false } } == 12 * 46)
        #expect(SoakSchedule.count(over: 3600) { $0 == .record } == 24, "12 movies started and stopped")
    }
}
