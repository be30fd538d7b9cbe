import ReflexSystem
import Synchronization

/// How the realtime loop tells the remote's keeper what the photographer chose in the quick
/// menu: Remote on or off, and Forget phones. The loop's side stores a flag or counts and
/// signals (nothing allocated, nothing waited for); the keeper's thread waits on `signal`.
public final class RemoteSwitch: Sendable {
    private let wanted: Atomic<Bool>
    private let forgetRequests = Atomic<Int>(0)
    public let signal = EventSignal()

    public init(on: Bool) { wanted = Atomic(on) }

    // MARK: the loop's side

    public func set(on: Bool) {
        guard wanted.exchange(on, ordering: .acquiringAndReleasing) != on else { return }
        signal.signal()
    }

    public func forgetEveryPhone() {
        forgetRequests.add(1, ordering: .releasing)
        signal.signal()
    }

    // MARK: the keeper's side

    public var isOn: Bool { wanted.load(ordering: .acquiring) }

    /// Forget requests made so far: the keeper forgets once for each it has not yet seen.
    public var forgetCount: Int { forgetRequests.load(ordering: .acquiring) }
}
