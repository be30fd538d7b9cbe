import ReflexBench
import ReflexCore
import Testing

/// The bench's framing score counts only the frames where some framing could meet the
/// targets: a subject against the picture's edge at 1× cannot be centred.
@Suite("Framing score")
struct FramingScoreTests {
    let score = FramingScore(size: .medium, firstScored: 0, zoomRange: 1...8)

    @Test func aSubjectTheZoomCanCentreIsFramable() {
        // 0.25 high: sized at 2×, whose crop (half the picture) can centre it anywhere
        // more than a sixth from the edges.
        #expect(score.isFramable(FractionalBox(centreX: 0.5, centreY: 0.5, width: 0.1, height: 0.25)))
        #expect(score.isFramable(FractionalBox(centreX: 0.2, centreY: 0.5, width: 0.1, height: 0.25)))
        #expect(!score.isFramable(FractionalBox(centreX: 0.15, centreY: 0.5, width: 0.1, height: 0.25)))
    }

    @Test func atOneTimesOnlyTheMiddleThirdCanBeCentred() {
        // 0.5 high: already the medium size at 1×, so the crop is the whole picture.
        #expect(score.isFramable(FractionalBox(centreX: 0.5, centreY: 0.5, width: 0.2, height: 0.5)))
        #expect(!score.isFramable(FractionalBox(centreX: 0.3, centreY: 0.5, width: 0.2, height: 0.5)))
    }

    @Test func subjectsBeyondTheZoomsReachAreNot() {
        // Taller than the size even at 1× (by more than the sizing's 20 %), or too small for 8×.
        #expect(!score.isFramable(FractionalBox(centreX: 0.5, centreY: 0.5, width: 0.3, height: 0.65)))
        #expect(score.isFramable(FractionalBox(centreX: 0.5, centreY: 0.5, width: 0.3, height: 0.58)))
        #expect(!score.isFramable(FractionalBox(centreX: 0.5, centreY: 0.5, width: 0.02, height: 0.05)))
    }

    @Test func framesLeftOutAreCountedNotScored() {
        var score = score
        let sample = FramingScore.Sample(picture: 1, time: 1, framing: Framing(zoom: 1), subjectID: 1)
        score.add(sample, truth: FractionalBox(centreX: 0.05, centreY: 0.5, width: 0.05, height: 0.5))
        #expect(score.leftOut == 1 && score.scored == 0)
        score.add(FramingScore.Sample(picture: 2, time: 2, framing: Framing(zoom: 1), subjectID: 1),
                  truth: FractionalBox(centreX: 0.5, centreY: 0.5, width: 0.2, height: 0.5))
        #expect(score.leftOut == 1 && score.scored == 1 && score.centredShare == 1 && score.sizedShare == 1)
        #expect(score.summary.hasPrefix("1 frames scored (1 left out: no framing could meet the targets there)"))
    }
}
