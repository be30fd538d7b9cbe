@testable import ReflexHardware
import Testing

/// The twins' noise: each frame's numbers its own. (Seeded a step apart, each frame once
/// replayed the last one's numbers a step on, and a burst's alignment followed the noise.)
@Suite struct SplitMixTests {
    @Test func consecutiveFramesShareNoNumbers() {
        func numbers(frame: UInt64) -> Set<UInt64> {
            var random = SplitMix(frame: frame, stream: 1)
            return Set((0..<1000).map { _ in random.next() })
        }
        for frame in UInt64(1)...5 {
            #expect(numbers(frame: frame).isDisjoint(with: numbers(frame: frame + 1)), "frames \(frame) and \(frame + 1)")
        }
        var video = SplitMix(frame: 1, stream: 7), scene = SplitMix(frame: 1, stream: 1)
        #expect(video.next() != scene.next(), "the streams differ too")
    }
}
