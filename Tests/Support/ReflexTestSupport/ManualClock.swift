import ReflexSystem
import Synchronization

/// A clock that stands still until it is moved: the time a test gives the code under it
/// (`TimeSource.manual`). Any thread may read it; the test's thread moves it.
public final class ManualClock: MovedClock {
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
