import Synchronization

/// How long each live-view picture took from the sensor's timestamp to being written to a
/// phone's socket, for `reflex bench remote` (a few bytes a picture; the newest 10,000 kept).
public final class LiveFrameLatencies: Sendable {
    private let state = Mutex<(seconds: [Double], sent: Int)>(([], 0))
    static let kept = 10_000

    public init() {}

    func record(_ seconds: Double) {
        state.withLock { state in
            if state.seconds.count == Self.kept { state.seconds.removeFirst(Self.kept / 2) }
            state.seconds.append(seconds)
            state.sent += 1
        }
    }

    /// Pictures written to every socket since the start.
    public var sent: Int { state.withLock { $0.sent } }

    /// The latencies recorded since the last take.
    public func take() -> [Double] {
        state.withLock { state in
            defer { state.seconds.removeAll(keepingCapacity: true) }
            return state.seconds
        }
    }
}
