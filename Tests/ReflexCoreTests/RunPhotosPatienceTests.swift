import ReflexCore
import Testing

/// How long a timelapse waits for its run's photos (issue 51: on the slowed host the last of
/// five was saved 100 s after the run ended, and the timelapse was made of four).
struct RunPhotosPatienceTests {
    /// Whether `patience` waits on at each (saved, now), in turn, for a run of 5.
    static func answers(_ patience: RunPhotosPatience, _ looks: [(saved: Int, now: Double)]) -> [Bool] {
        var patience = patience
        return looks.map { patience.waitsOn(saved: $0.saved, of: 5, now: $0.now) }
    }

    @Test func photosSavedSteadilyButLateAreAllWaitedFor() {
        // 100 s after the run's end, 45 s after the last photo saved: still waiting; all
        // saved: no wait.
        let waits = Self.answers(RunPhotosPatience(saved: 2, now: 0, seconds: 60),
                                 [(2, 50), (3, 55), (4, 100), (4, 150), (5, 151)])
        #expect(waits == [true, true, true, true, false])
    }

    @Test func aPhotoThatNeverComesEndsTheWaitAfterThePatience() {
        let waits = Self.answers(RunPhotosPatience(saved: 3, now: 10, seconds: 60), [(4, 20), (4, 79.9), (4, 80)])
        #expect(waits == [true, true, false])
        #expect(Self.answers(RunPhotosPatience(saved: 0, now: 0, seconds: 60), [(0, 60)]) == [false])
    }
}
