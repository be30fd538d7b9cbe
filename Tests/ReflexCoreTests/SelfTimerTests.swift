import ReflexCore
import Testing

/// The self-timer's countdown with the time injected.
@Suite struct SelfTimerTests {
    @Test func tenSecondsCountsDownEachSecondOnceThenTakesThePhotoAtItsSecond() {
        var timer = SelfTimer(delay: .tenSeconds)
        timer.start(at: 100)
        var announced: [Int] = []
        var shots: [Double] = []
        // A loop at 60 Hz, a little late now and then.
        var now = 100.0
        while now < 112 {
            if let left = timer.announcement(at: now) { announced.append(left) }
            while let shot = timer.nextShot(at: now) { shots.append(shot) }
            now += 1.0 / 60 + (Int(now * 60) % 7 == 0 ? 0.01 : 0)
        }
        #expect(announced == [10, 9, 8, 7, 6, 5, 4, 3, 2, 1])
        #expect(shots == [110], "the photo of the moment the ten seconds end, however late the loop looked")
        #expect(!timer.isRunning)
    }

    @Test func threeShotsComeASecondApartAfterTheDelay() {
        var timer = SelfTimer(delay: .tenSecondsThreeShots)
        timer.start(at: 0)
        #expect(timer.nextShot(at: 9.99) == nil)
        // A loop stalled past all three: each still has its own moment.
        #expect(timer.nextShot(at: 13) == 10)
        #expect(timer.nextShot(at: 13) == 11)
        #expect(timer.isRunning)
        #expect(timer.nextShot(at: 13) == 12)
        #expect(timer.nextShot(at: 13) == nil && !timer.isRunning)
    }

    @Test func aCancelledTimerTakesNothing() {
        var timer = SelfTimer(delay: .twoSeconds)
        timer.start(at: 5)
        #expect(timer.announcement(at: 5) == 2 && timer.secondsLeft(at: 5.5) == 2 && timer.secondsLeft(at: 6.2) == 1)
        timer.cancel()
        #expect(timer.nextShot(at: 8) == nil && timer.announcement(at: 8) == nil && timer.secondsLeft(at: 8) == nil)
    }
}
