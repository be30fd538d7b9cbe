import ReflexCore
import Testing

/// Interval shooting's plan, with the time injected (monotonic seconds).
@Suite struct IntervalScheduleTests {
    @Test func onlyIntervalsFromASecondToADay() {
        #expect(IntervalSchedule(interval: 0.5, count: 10) == nil && IntervalSchedule(interval: 86_401, count: 10) == nil)
        #expect(IntervalSchedule(interval: 2, count: 0) == nil && IntervalSchedule(interval: 2, count: nil) != nil)
    }

    @Test func photosOnTheGridAfterTheFirstDelayUntilTheCount() throws {
        var schedule = try #require(IntervalSchedule(interval: 2, count: 5, firstDelay: 3))
        schedule.start(at: 1000)
        var shots: [Double] = []
        var now = 1000.0
        while !schedule.isFinished && now < 1100 {
            if let shot = schedule.next(at: now) {
                shots.append(shot)
                // Taking a photo takes a while: the next stays on the grid.
                now += 0.3
            }
            now += 1.0 / 60
        }
        #expect(shots == [1003, 1005, 1007, 1009, 1011])
        #expect(schedule.taken == 5 && schedule.missed == 0 && schedule.remaining == 0)
    }

    @Test func aStallTakesTheNewestPhotoDueAndCountsTheOthersMissed() throws {
        var schedule = try #require(IntervalSchedule(interval: 1, count: 10))
        schedule.start(at: 0)
        #expect(schedule.next(at: 0) == 0)
        // Stalled from 0.1 to 3.5 s: 1, 2 and 3 fell due.
        #expect(schedule.next(at: 3.5) == 3)
        #expect(schedule.missed == 2 && schedule.taken == 2 && schedule.remaining == 6)
        #expect(schedule.nextDue == 4)
    }

    @Test func aDayLongRunCrossesMidnightAndAClockChangeOnTheMonotonicClock() throws {
        // Every 10 minutes from 23:00 for 24 hours: 145 photos. The wall clock jumping back an
        // hour (the end of summer time) at 03:00 is not this clock's: nothing moves.
        var schedule = try #require(IntervalSchedule(interval: 600, count: 145))
        let started = 5_000.0
        schedule.start(at: started)
        var shots: [Double] = []
        var now = started
        while !schedule.isFinished {
            if let shot = schedule.next(at: now) { shots.append(shot) }
            now += 7
        }
        #expect(shots.count == 145 && schedule.missed == 0)
        #expect(shots.last == started + 24 * 3600)
        #expect(zip(shots, shots.dropFirst()).allSatisfy { $1 - $0 == 600 })
    }

    @Test func untilStoppedRunsOnAndStops() throws {
        var schedule = try #require(IntervalSchedule(interval: 5, count: nil))
        schedule.start(at: 0)
        #expect(schedule.next(at: 0) == 0 && schedule.next(at: 5) == 5 && schedule.remaining == nil)
        schedule.stop()
        #expect(schedule.next(at: 10) == nil && schedule.isFinished)
    }

    @Test func theCardIsCheckedAgainstThePhotosToCome() throws {
        var schedule = try #require(IntervalSchedule(interval: 2, count: 100))
        schedule.start(at: 0)
        #expect(schedule.shortfall(freeBytes: 1_000_000_000, bytesPerPhoto: 8_000_000) == nil)
        #expect(schedule.shortfall(freeBytes: 400_000_000, bytesPerPhoto: 8_000_000, reserveBytes: 8_000_000) == 49)
        // Until stopped: an hour's photos (1800 at 2 s) must fit.
        var open = try #require(IntervalSchedule(interval: 2, count: nil))
        open.start(at: 0)
        #expect(open.shortfall(freeBytes: 1_000_000_000, bytesPerPhoto: 1_000_000) == 1000)
    }
}
