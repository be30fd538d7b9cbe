import ReflexCore
import Testing

/// Exposure brackets: their offsets, and the exposures they ask of a sensor with limits.
@Suite struct BracketPlanTests {
    @Test func onlyTheCountsAndStepsCamerasOffer() {
        #expect(BracketPlan(frames: 4, stepThirds: 3) == nil && BracketPlan(frames: 3, stepThirds: 0) == nil)
        #expect(BracketPlan(frames: 7, stepThirds: 10) == nil && BracketPlan(frames: 7, stepThirds: 9) != nil)
    }

    @Test func theBaseFirstThenUnderAndOverByIncreasingDistance() {
        #expect(BracketPlan(frames: 3, stepThirds: 3)?.offsetsInThirds == [0, -3, 3])
        #expect(BracketPlan(frames: 5, stepThirds: 2)?.offsetsInThirds == [0, -2, 2, -4, 4])
        #expect(BracketPlan(frames: 7, stepThirds: 1)?.offsetsInThirds == [0, -1, 1, -2, 2, -3, 3])
    }

    @Test func theTimeMovesFirstThenTheGain() throws {
        let plan = try #require(BracketPlan(frames: 3, stepThirds: 6))
        // 1/240 s at gain 1, at most 1/60 s a frame: -2 EV is 1/960 s; +2 EV is 1/60 s.
        let set = plan.exposures(seconds: 1.0 / 240, gain: 1, times: 0.0001...(1.0 / 60), gains: 1...16)
        try #require(set.map(\.offsetThirds) == [0, -6, 6])
        #expect(abs(set[1].seconds - 1.0 / 960) < 1e-9 && set[1].gain == 1)
        #expect(abs(set[2].seconds - 1.0 / 60) < 1e-9 && abs(set[2].gain - 1) < 1e-9)
        #expect(set.allSatisfy { $0.reached })
        // From 1/60 s, +2 EV can only come from the gain.
        let bright = plan.exposures(seconds: 1.0 / 60, gain: 2, times: 0.0001...(1.0 / 60), gains: 1...16)
        try #require(bright.count == 3)
        #expect(abs(bright[2].gain - 8) < 1e-9 && bright[2].reached)
    }

    @Test func aFrameTheSensorCannotExposeAsAskedIsMarked() throws {
        let plan = try #require(BracketPlan(frames: 3, stepThirds: 9))
        // Pro: the set ISO held, 1/60 s the longest a frame allows: +3 EV is out of reach.
        let set = plan.exposures(seconds: 1.0 / 60, gain: 4, times: 0.0001...(1.0 / 60), gains: 1...16, holdGain: true)
        try #require(set.count == 3)
        #expect(set[0].reached && set[1].reached && !set[2].reached)
        #expect(set.allSatisfy { $0.gain == 4 })
    }
}
