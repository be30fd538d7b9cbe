import ReflexCore
import Testing

/// Holding the shutter: 10 photos a second from the press, the first ones from the past.
@Suite struct BurstTimerTests {
    static func drain(_ timer: inout BurstTimer, at now: Double) -> [Double] {
        var due: [Double] = []
        while let time = timer.next(at: now) { due.append(time) }
        return due
    }

    @Test func aTapIsOnePhotoAndNoBurst() {
        var timer = BurstTimer()
        timer.press(at: 10)
        #expect(Self.drain(&timer, at: 10.1).isEmpty, "not yet a hold")
        timer.release(at: 10.15)
        #expect(Self.drain(&timer, at: 11).isEmpty, "let go before the hold: just the press's photo")
        #expect(!timer.isHeld)
    }

    @Test func aHoldTakesTenASecondFromThePressUntilLetGo() {
        var timer = BurstTimer()
        timer.press(at: 10)
        // Recognised as a hold at 0.25 s: the photos at 0.1 and 0.2 s come from the ring.
        let first = Self.drain(&timer, at: 10.26)
        #expect(first.count == 2 && abs(first[0] - 10.1) < 1e-9 && abs(first[1] - 10.2) < 1e-9)
        var all = first
        for step in 1...170 { all += Self.drain(&timer, at: 10.26 + Double(step) / 60) }  // the loop at 60 Hz
        timer.release(at: 13.0)
        all += Self.drain(&timer, at: 13.02)
        // Three seconds held: the press's photo plus 30 more, 0.1 s apart (the last at 13.0).
        #expect(all.count == 30, "\(all.count) burst photos")
        for (index, time) in all.enumerated() { #expect(abs(time - (10 + Double(index + 1) * 0.1)) < 1e-9) }
        #expect(!timer.isHeld && Self.drain(&timer, at: 14).isEmpty, "none after letting go")
    }

    @Test func theRateCanBeFaster() {
        var timer = BurstTimer(framesPerSecond: 15)
        timer.press(at: 0)
        #expect(Self.drain(&timer, at: 1).count == 15)
    }
}
