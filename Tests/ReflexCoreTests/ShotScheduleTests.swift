import ReflexCore
import Testing

/// A command's photos planned ahead, with the time injected: a burst at the camera's own
/// rate, the self-timer's delay and spacing, an interval run's grid and its missed photos.
@Suite("Shot schedule")
struct ShotScheduleTests {
    /// Every photo the schedule takes when asked at each of `times`, in order.
    static func taken(_ schedule: inout ShotSchedule, at times: [Double]) -> [Double] {
        times.filter { schedule.take(at: $0) }
    }

    @Test func aBurstIsAtTheCamerasOwnBurstRate() {
        var schedule = ShotSchedule(.burst(3))
        schedule.start(commandStartedAt: 0, now: 2)
        #expect(schedule.nextDue == 2)
        #expect(Self.taken(&schedule, at: [2]) == [2] && schedule.nextDue == 2 + BurstTimer().interval)
        #expect(Self.taken(&schedule, at: [2.05]).isEmpty, "the next not yet due")
        #expect(Self.taken(&schedule, at: [2.1, 2.3]) == [2.1, 2.3], "a late one is taken all the same")
        #expect(schedule.nextDue == nil && Self.taken(&schedule, at: [9]).isEmpty)
    }

    @Test func theSelfTimerCountsFromTheCommandAndSaysItsSeconds() {
        var schedule = ShotSchedule(.selfTimer(.tenSecondsThreeShots))
        schedule.start(commandStartedAt: 100, now: 101.5)
        #expect(schedule.nextDue == 110)
        #expect(schedule.countdown(at: 101.5) == 9 && schedule.countdown(at: 109.2) == 1)
        #expect(Self.taken(&schedule, at: [109.9, 110]) == [110])
        #expect(schedule.nextDue == 110 + SelfTimer.shotSpacing)
        #expect(Self.taken(&schedule, at: [110.5, 111, 112]) == [111, 112])
        #expect(schedule.nextDue == nil && schedule.countdown(at: 112) == nil)
    }

    @Test func anIntervalRunKeepsItsGridAndCountsWhatItMissed() throws {
        let run = try #require(IntervalSchedule(interval: 5, count: 4, firstDelay: 2))
        var schedule = ShotSchedule(.interval(run))
        schedule.start(commandStartedAt: 0, now: 1)
        #expect(schedule.nextDue == 2, "the first delay counts from the command")
        #expect(Self.taken(&schedule, at: [2]) == [2])
        // The second photo's time passes while the first is still being taken.
        #expect(Self.taken(&schedule, at: [12.5]) == [12.5], "the newest due is taken")
        #expect(schedule.missed == 1)
        #expect(Self.taken(&schedule, at: [17]) == [17] && schedule.nextDue == nil)
    }

    @Test func aCameraSlowerToStartThanTheFirstDelayMovesTheGrid() throws {
        let run = try #require(IntervalSchedule(interval: 5, count: 3, firstDelay: 2))
        var schedule = ShotSchedule(.interval(run))
        schedule.start(commandStartedAt: 0, now: 9)
        #expect(schedule.nextDue == 9)
        #expect(Self.taken(&schedule, at: [9]) == [9] && schedule.missed == 0)
    }
}
