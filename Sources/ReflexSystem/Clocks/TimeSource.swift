import Synchronization

/// Where a thread reads the time: the monotonic clock on the camera, a `ManualClock` that a
/// test moves. Code that decides by the time (the realtime loop's deadlines, the simulated
/// sensor's frames) reads it here, so a test can run it frame by frame on any machine, idle
/// or busy, and get the same result. Reading it never allocates or locks.
public enum TimeSource: Sendable {
    case monotonic
    case manual(ManualClock)

    /// Seconds, on the monotonic clock's scale.
    @inline(__always)
    public func now() -> Double {
        switch self {
        case .monotonic: monotonicSeconds()
        case .manual(let clock): clock.now
        }
    }

    /// Whether a test drives it (durations measured on it are then the test's, not the CPU's).
    public var isManual: Bool {
        if case .manual = self { return true }
        return false
    }
}

/// A clock that stands still until it is moved: the time a test gives the code under it.
/// Any thread may read it; the test's thread moves it.
public final class ManualClock: Sendable {
    private let bits: Atomic<UInt64>

    /// Starts at `seconds` (by default a monotonic-looking moment well after 0, so nothing
    /// mistakes it for "never").
    public init(at seconds: Double = 1000) {
        bits = Atomic(seconds.bitPattern)
    }

    public var now: Double { Double(bitPattern: bits.load(ordering: .acquiring)) }

    /// Moves the clock to `seconds`; never back.
    public func advance(to seconds: Double) {
        precondition(seconds >= now, "a clock does not go back")
        bits.store(seconds.bitPattern, ordering: .releasing)
    }

    public func advance(by seconds: Double) { advance(to: now + seconds) }
}
