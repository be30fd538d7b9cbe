@testable import ReflexHardware
import ReflexCore
import ReflexSystem
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The vibrator's plumbing that runs without one. A real force-feedback device (a uinput
/// vibrator answering uploads, as a driver does) is tested in QEMU's `haptics` scenario.
@Suite struct HapticsTests {
    @Test func aVibratorTravelsToTheLoopInOneWord() {
        let loaded = LoadedEffects(descriptor: 17, effectIDs: [0, 1, 2, 9])
        #expect(loaded.packed != 0)
        #expect(LoadedEffects(packed: loaded.packed) == loaded)
        #expect(LoadedEffects(packed: 0) == nil, "0 is no vibrator")
        // Descriptor 0 is a real descriptor, not "none".
        let first = LoadedEffects(descriptor: 0, effectIDs: [3, 4, 5, 6])
        #expect(LoadedEffects(packed: first.packed) == first)
    }

    @Test func playingIsOneWriteOfOneForceFeedbackEvent() throws {
        // A pipe stands in for the device node: what the loop writes is what a driver reads.
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        let loaded = LoadedEffects(descriptor: ends[1], effectIDs: [4, 5, 6, 7])
        #expect(LoadedEffects.play(.confirm, from: loaded.packed) == 0)
        var event = input_event_bytes()
        #expect(read(ends[0], &event, MemoryLayout<input_event_bytes>.size) == 24)
        #expect(event.type == 0x15, "EV_FF")
        #expect(event.code == 6, "the confirmation's own id")
        #expect(event.value == 1, "play once")
    }

    @Test func somethingThatCannotVibrateIsNotAVibrator() throws {
        // /dev/null answers no evdev ioctl: not a vibrator, with the reason.
        #expect(throws: SystemError.self) { _ = try Vibrator.open(path: "/dev/null") }
        #expect(throws: SystemError.self) { _ = try Vibrator.open(path: "/nonexistent/event0") }
    }

    @Test func withoutAVibratorNothingIsFeltAndNothingFails() throws {
        // A board without input devices at all (a folder with no event nodes).
        let folder = "/nonexistent/input"
        let lines = Mutex<[String]>([])
        let haptics = Haptics(folder: folder, log: { line in lines.withLock { $0.append(line) } })
        #expect(haptics.start())
        for effect in HapticEffect.allCases { haptics.play(effect) }
        haptics.stop()
        #expect(!haptics.hasVibrator && haptics.played == 0)
        #expect(lines.withLock { $0 }.contains { $0.contains("no vibrator") })
    }
}

/// struct input_event on 64-bit Linux: a timeval, then type, code and value.
private struct input_event_bytes {
    var seconds: Int = 0, microseconds: Int = 0
    var type: UInt16 = 0, code: UInt16 = 0
    var value: Int32 = 0
}
