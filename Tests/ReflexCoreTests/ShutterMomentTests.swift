import Testing
@testable import ReflexCore

/// Zero shutter lag: which frame a press takes, from kernel timestamps.
@Suite("The shutter's moment")
struct ShutterMomentTests {
    /// Frames at 30 fps ending at 100 ms, 133 ms, … (end-of-frame timestamps), 10 ms exposures.
    static func frames(_ count: Int, firstEnd: Int64 = 100_000_000, period: Int64 = 33_333_333,
                       exposure: Double = 0.01, firstSequence: UInt32 = 10) -> [ShutterMoment.Frame] {
        (0..<count).map {
            ShutterMoment.Frame(sequence: firstSequence + UInt32($0), timestampNanoseconds: firstEnd + Int64($0) * period,
                                exposureSeconds: exposure)
        }
    }

    @Test func aPressTakesTheFrameUnderWay() {
        let frames = Self.frames(5)
        // Frame 12's period runs from 133.3 ms to 166.7 ms.
        for press in [Int64(133_400_000), 150_000_000, 166_600_000] {
            let moment = ShutterMoment(pressNanoseconds: press, frameSeconds: 1.0 / 30, mark: .endOfFrame)
            #expect(moment.choose(from: frames) == .take(12), "press at \(press) ns")
        }
    }

    @Test func aPressAfterTheNewestFrameWaits() {
        let moment = ShutterMoment(pressNanoseconds: 300_000_000, frameSeconds: 1.0 / 30, mark: .endOfFrame)
        #expect(moment.choose(from: Self.frames(5)) == .wait)
        #expect(moment.choose(from: [ShutterMoment.Frame]()) == .wait)
    }

    @Test func aPressOlderThanTheRingTakesTheOldestAsLate() {
        let moment = ShutterMoment(pressNanoseconds: 10_000_000, frameSeconds: 1.0 / 30, mark: .endOfFrame)
        #expect(moment.choose(from: Self.frames(5)) == .late(10))
    }

    @Test func startOfExposureTimestampsCountForward() {
        // SOE: frame 12's period runs from its timestamp, 166.7 ms, to 200 ms.
        let moment = ShutterMoment(pressNanoseconds: 180_000_000, frameSeconds: 1.0 / 30, mark: .startOfExposure)
        #expect(moment.choose(from: Self.frames(5)) == .take(12))
    }

    @Test func aPressInADroppedFramesPeriodTakesTheNext() {
        var frames = Self.frames(5)
        frames.remove(at: 2)  // frame 12 never came
        let moment = ShutterMoment(pressNanoseconds: 150_000_000, frameSeconds: 1.0 / 30, mark: .endOfFrame)
        #expect(moment.choose(from: frames) == .take(13))
    }

    @Test func aLongExposureTakesTheNextWholeOne() {
        // 1 s exposures, one a second (the frame lengthened): a press during frame 11's
        // exposure takes frame 12, the first to begin after it.
        let frames = Self.frames(3, firstEnd: 1_000_000_000, period: 1_000_000_000, exposure: 1.0)
        let moment = ShutterMoment(pressNanoseconds: 1_500_000_000, frameSeconds: 1.0 / 30, mark: .endOfFrame)
        #expect(moment.choose(from: frames) == .take(12))
        let beforeAll = ShutterMoment(pressNanoseconds: 1_000_000_000, frameSeconds: 1.0 / 30, mark: .endOfFrame)
        #expect(beforeAll.choose(from: frames) == .take(11))
        let afterAll = ShutterMoment(pressNanoseconds: 2_500_000_000, frameSeconds: 1.0 / 30, mark: .endOfFrame)
        #expect(afterAll.choose(from: frames) == .wait)
    }
}
