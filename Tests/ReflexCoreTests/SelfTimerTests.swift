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

    @Test func theLightBlinksAtTheStartOfEachSecondAndTheLoopWakesForEachChange() {
        var timer = SelfTimer(delay: .twoSeconds)
        #expect(!timer.lightOn(at: 0) && timer.nextChange(after: 0) == nil)
        timer.start(at: 10)
        // Lit for the first fifth of each counted second, dark for the rest, dark at the shot.
        #expect(timer.lightOn(at: 10) && timer.lightOn(at: 10.15) && !timer.lightOn(at: 10.25))
        #expect(timer.lightOn(at: 11.05) && !timer.lightOn(at: 11.5) && !timer.lightOn(at: 12))
        // The wake-ups: the light going out, the next second, the shot.
        #expect(timer.nextChange(after: 10).map { abs($0 - 10.2) < 1e-9 } == true)
        #expect(timer.nextChange(after: 10.5).map { abs($0 - 11) < 1e-9 } == true)
        #expect(timer.nextChange(after: 11.1).map { abs($0 - 11.2) < 1e-9 } == true)
        #expect(timer.nextChange(after: 12.5) == 12, "a shot due is due at once")
        _ = timer.nextShot(at: 12.5)
        #expect(timer.nextChange(after: 12.5) == nil && !timer.isRunning)
    }
}

@Suite struct DurationTextTests {
    @Test func durationsReadAndWriteAsPhotographersSpellThem() {
        for (text, seconds) in [("0s", 0), ("1s", 1), ("45s", 45), ("1m", 60), ("1m30s", 90), ("2h", 7200),
                                ("1h5m20s", 3920), ("24h", 86_400)] {
            #expect(DurationText.text(seconds) == text)
            #expect(DurationText.seconds(parsing: text) == seconds)
        }
        #expect(DurationText.seconds(parsing: "90") == 90)
        #expect(DurationText.seconds(parsing: "1H 30M") == 5400)
        for bad in ["", "m", "5x", "1s1m", "1m1m", "-5s", "5.5s", "h5", "200h", "99999999999999999999s", "٣s"] {
            #expect(DurationText.seconds(parsing: bad) == nil, "\(bad)")
        }
    }
}
