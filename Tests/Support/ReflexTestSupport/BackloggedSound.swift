import ReflexHardware
import ReflexSystem
import Synchronization

/// Sound that is always waiting, as a microphone's is on a board slower than its sound:
/// every chunk given back is filled again at once (a period stamped now), so the movie
/// thread never finds the queue empty, for `seconds` after it starts. No host here is slow
/// enough to make a real microphone do this.
public final class BackloggedSound: SoundCapture, @unchecked Sendable {
    public let chunks: HandOffQueue<MicrophoneChunk>
    public let channels = 1
    public let summary = "a backlog (a test's)"
    public let overruns = 0
    public let periodsLost = 0
    private let seconds: Double
    private let startedAt = Atomic<Int64>(0)

    public init(wakes: EventSignal, seconds: Double) {
        self.seconds = seconds
        chunks = HandOffQueue(capacity: 32, wakes: wakes)
    }

    /// Opens one for any device named.
    public static func opener(seconds: Double) -> SoundCaptureOpener {
        { _, wakes in BackloggedSound(wakes: wakes, seconds: seconds) }
    }

    public func start() -> Bool {
        startedAt.store(monotonicNanoseconds(), ordering: .relaxed)
        for _ in 0..<chunks.capacity { fill(MicrophoneChunk(frames: Microphone.periodFrames, channels: channels)) }
        return true
    }

    public func stop() {}

    public func giveBack(_ chunk: MicrophoneChunk) {
        let elapsed = Double(monotonicNanoseconds() - startedAt.load(ordering: .relaxed)) / 1e9
        if elapsed < seconds { fill(chunk) }
    }

    private func fill(_ chunk: MicrophoneChunk) {
        chunk.count = Microphone.periodFrames
        chunk.capturedAtNanoseconds = monotonicNanoseconds()
        chunks.send(chunk)
    }
}
