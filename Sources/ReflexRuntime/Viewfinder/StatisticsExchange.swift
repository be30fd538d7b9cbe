import ReflexSystem
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The realtime loop's statistics for other threads, without a lock the loop could wait on:
/// the asker bumps `requested` and waits for `answered` to reach it; the loop copies only
/// while a request is unanswered, between two frames, so the copy is never written while
/// read. One asking thread at a time.
final class StatisticsExchange: @unchecked Sendable {
    private let requested = Atomic<Int>(0)
    private let answered = Atomic<Int>(0)
    private var copy = FrameLoop.Statistics()
    /// When the first flip came (boot-clock seconds, as a Double's bits; 0 before it).
    private let firstFlipAt = Atomic<UInt64>(0)

    /// The loop's thread, at each completed flip: the first is taken as the flip's event is
    /// read (start-up is measured to here).
    func flipped() {
        guard firstFlipAt.load(ordering: .relaxed) == 0 else { return }
        firstFlipAt.store(bootSeconds().bitPattern, ordering: .releasing)
    }

    /// Boot-clock seconds when the first frame reached the screen; nil before.
    var firstFlipBootSeconds: Double? {
        let bits = firstFlipAt.load(ordering: .acquiring)
        return bits == 0 ? nil : Double(bitPattern: bits)
    }

    /// The loop's thread: whether a request waits for an answer.
    var isAsked: Bool { requested.load(ordering: .acquiring) > answered.load(ordering: .relaxed) }

    /// The loop's thread, when `isAsked`: hands over a copy of `statistics` with the first
    /// flip's seconds after the process began (no allocation).
    func answer(with statistics: FrameLoop.Statistics) {
        let request = requested.load(ordering: .acquiring)
        copy.copy(from: statistics)
        copy.firstFlipSeconds = firstFlipBootSeconds.map { $0 - ProcessClock.startBootSeconds }
        answered.store(request, ordering: .releasing)
    }

    /// Another thread: asks (then `wake`s the loop) and waits for the copy; nil after
    /// `timeout` seconds, or at once when `gaveUp` says the loop has ended.
    func ask(timeout: Double, wake: () -> Void, gaveUp: () -> Bool) -> FrameLoop.Statistics? {
        let request = requested.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue
        wake()
        var waited = 0.0
        while answered.load(ordering: .acquiring) < request {
            guard waited < timeout, !gaveUp() else { return nil }
            usleep(2_000)
            waited += 0.002
        }
        return copy
    }
}
