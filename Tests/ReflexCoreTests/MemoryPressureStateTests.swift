import ReflexCore
import Testing

/// The memory pressure level: up at once when a trigger fires, down one level at a time
/// after a quiet spell; what each level gives up.
@Suite struct MemoryPressureStateTests {
    @Test func aTriggerRaisesTheLevelAtOnceAndQuietLowersItStepByStep() {
        var state = MemoryPressureState()
        state.fired(.moderate, at: 0)
        #expect(state.level == .moderate)
        state.fired(.severe, at: 1)
        #expect(state.level == .severe)
        // A moderate trigger while severe neither lowers it nor keeps it up.
        state.fired(.moderate, at: 8)
        #expect(!state.update(at: 10.5) && state.level == .severe)
        #expect(state.update(at: 11) && state.level == .moderate, "ten quiet seconds after the severe trigger")
        #expect(!state.update(at: 20) && state.level == .moderate)
        #expect(state.update(at: 21) && state.level == .normal)
        #expect(!state.update(at: 100) && state.level == .normal)
    }

    @Test func eachLevelGivesUpMoreMemory() {
        #expect(MemoryPressureLevel.normal.ringFrames(of: 12) == 12 && MemoryPressureLevel.normal.photosOnTheirWay(of: 32) == 32)
        #expect(MemoryPressureLevel.moderate.ringFrames(of: 12) == 3 && MemoryPressureLevel.moderate.photosOnTheirWay(of: 32) == 4)
        #expect(MemoryPressureLevel.severe.ringFrames(of: 12) == 2 && MemoryPressureLevel.severe.photosOnTheirWay(of: 32) == 1)
        #expect(MemoryPressureLevel.moderate.ringFrames(of: 2) == 2, "never more than the ring has")
        #expect(!MemoryPressureLevel.moderate.cancelsWaitingPhotos && MemoryPressureLevel.severe.cancelsWaitingPhotos)
    }
}
