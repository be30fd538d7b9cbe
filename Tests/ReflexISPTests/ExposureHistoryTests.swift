import Testing
@testable import ReflexISP

@Suite("Which setting each frame had")
struct ExposureHistoryTests {
    let a = ExposureSetting(exposure: 0.01, analogGain: 1)
    let b = ExposureSetting(exposure: 0.02, analogGain: 2)
    let c = ExposureSetting(exposure: 0.005, analogGain: 4)

    @Test func aSettingShowsTwoFramesAfterTheNextOne() {
        var history = ExposureHistory(initial: a, delayFrames: 2)
        history.sent(b, after: 10)
        #expect(history.setting(forFrame: 10) == a)
        #expect(history.setting(forFrame: 12) == a)
        #expect(history.setting(forFrame: 13) == b)
        history.sent(c, after: 11)
        #expect(history.setting(forFrame: 13) == b)
        #expect(history.setting(forFrame: 14) == c)
    }

    /// What the sensor thread waits for before it calls a stream stalled: the longest
    /// exposure of the frames still under way after the last one that came.
    @Test func theFramesUnderWayMayStillHaveALongExposure() {
        let long = ExposureSetting(exposure: 2, analogGain: 1)
        var history = ExposureHistory(initial: a, delayFrames: 2)
        #expect(history.longestExposure(after: nil) == 0.01)
        history.sent(long, after: 10)   // frames 13 on: 2 s
        history.sent(c, after: 11)      // frames 14 on: 1/200 s
        // After frame 11 came: 12 (a), 13 (2 s), 14 (c) are under way.
        #expect(history.longestExposure(after: 11) == 2)
        // After frame 13 came: 14, 15, 16 all have c.
        #expect(history.longestExposure(after: 13) == 0.005)
        #expect(history.longestExposure(after: nil) == 2, "no frame yet: every value kept")
    }

    @Test func withoutDelayTheNextFrameHasIt() {
        var history = ExposureHistory(initial: a, delayFrames: 0)
        history.sent(b, after: 5)
        #expect(history.setting(forFrame: 5) == a)
        #expect(history.setting(forFrame: 6) == b)
    }

    @Test func sequenceNumbersMayWrap() {
        var history = ExposureHistory(initial: a, delayFrames: 1)
        history.sent(b, after: UInt32.max - 1)
        #expect(history.setting(forFrame: UInt32.max) == a)
        #expect(history.setting(forFrame: 0) == b)
        #expect(history.setting(forFrame: 5) == b)
    }

    @Test func olderThanTheRingIsTheOldestKept() {
        var history = ExposureHistory(initial: a, delayFrames: 0)
        for n in 0..<20 { history.sent(n % 2 == 0 ? b : c, after: UInt32(100 + n)) }
        #expect(history.setting(forFrame: 120) == c)
        #expect(history.setting(forFrame: 115) == b)
    }
}
