import ReflexCore
import ReflexSystem
import Synchronization

/// How the realtime loop tells the USB keeper what the photographer chose in the quick menu
/// (USB Off, Files or Tethered): the loop's side stores the choice and signals (nothing
/// allocated, nothing waited for); the keeper's thread waits on `signal`.
public final class USBSwitch: Sendable {
    private let wanted: Atomic<Int>
    public let signal = EventSignal()

    public init(_ mode: USBMode) { wanted = Atomic(Self.index(mode)) }

    /// The loop's side.
    public func set(_ mode: USBMode) {
        guard wanted.exchange(Self.index(mode), ordering: .acquiringAndReleasing) != Self.index(mode) else { return }
        signal.signal()
    }

    /// The keeper's side.
    public var mode: USBMode {
        switch wanted.load(ordering: .acquiring) {
        case 1: .files
        case 2: .tethered
        default: .off
        }
    }

    /// (A switch, not `allCases`: the loop's side must allocate nothing.)
    private static func index(_ mode: USBMode) -> Int {
        switch mode {
        case .off: 0
        case .files: 1
        case .tethered: 2
        }
    }
}
