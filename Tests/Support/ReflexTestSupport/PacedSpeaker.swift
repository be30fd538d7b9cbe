import ReflexHardware
import ReflexSystem

/// A speaker that plays at the pace of a test's clock: it holds `bufferSeconds` of sound, plays
/// from `start()`, and runs dry (stops playing, as ALSA's underrun does) once everything
/// written was heard, as a board's does when review's thread is held up. It counts what it
/// played, and from which movie times, for the test to compare with the pictures.
public final class PacedSpeaker: SoundOutput {
    public let sampleRate: Int
    public private(set) var framesWritten = 0
    /// Frames heard in all, across stops.
    public private(set) var framesHeard = 0
    /// Times it started playing from nothing (the first start, and after each dry spell).
    public private(set) var starts = 0
    private let clock: ManualClock
    private let capacity: Int
    private var queued = 0
    private var playing = false
    /// The clock's time up to which the queue's playing was counted.
    private var countedAt = 0.0

    public init(sampleRate: Int, clock: ManualClock, bufferSeconds: Double = 0.5) {
        (self.sampleRate, self.clock) = (sampleRate, clock)
        capacity = Int(Double(sampleRate) * bufferSeconds)
    }

    /// Opens one on `clock` for any device named.
    public static func opener(clock: ManualClock) -> SoundOutputOpener {
        { _, rate in PacedSpeaker(sampleRate: rate, clock: clock) }
    }

    public func write(_ samples: [Int16], from: Int) -> Int {
        catchUp()
        let taken = max(0, min(samples.count / 2 - from, capacity - queued))
        (queued, framesWritten) = (queued + taken, framesWritten + taken)
        return taken
    }

    public var queuedSeconds: Double {
        catchUp()
        return Double(queued) / Double(sampleRate)
    }

    public var isPlaying: Bool {
        catchUp()
        return playing
    }

    public func start() {
        catchUp()
        guard !playing, queued > 0 else { return }
        (playing, countedAt, starts) = (true, clock.now, starts + 1)
    }

    public func stop() {
        catchUp()
        (playing, queued, framesWritten) = (false, 0, 0)
    }

    /// What played since it was last counted; dry once the queue is empty.
    private func catchUp() {
        guard playing else { return }
        let played = min(queued, Int((clock.now - countedAt) * Double(sampleRate)))
        countedAt += Double(played) / Double(sampleRate)
        (queued, framesHeard) = (queued - played, framesHeard + played)
        if queued == 0 { playing = false }
    }
}
