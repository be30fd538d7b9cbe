import Synchronization

/// The realtime loop running now, for the remote's thread: the main thread sets it as the
/// display comes and goes (it is made again when a display is reopened).
public final class ShownLoop: Sendable {
    private let loop = Mutex<FrameLoop?>(nil)

    public init() {}

    public var current: FrameLoop? { loop.withLock { $0 } }

    public func set(_ newLoop: FrameLoop?) { loop.withLock { $0 = newLoop } }
}
