/// Where a thread reads the time: the monotonic clock on the camera, a clock a test moves
/// (`MovedClock`). Code that decides by the time (the realtime loop's deadlines, the simulated
/// sensor's frames) reads it here, so a test can run it frame by frame on any machine, idle
/// or busy, and get the same result. Reading it never allocates or locks.
public enum TimeSource: Sendable {
    case monotonic
    case manual(any MovedClock)

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

/// A clock that something other than time moves (a test, frame by frame): what `.manual`
/// reads. The product has none; the tests' `ManualClock` (ReflexTestSupport) is one.
public protocol MovedClock: AnyObject, Sendable {
    /// Seconds, on the monotonic clock's scale; never goes back.
    var now: Double { get }
}
