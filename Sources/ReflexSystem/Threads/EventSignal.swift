import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// A wake-up one thread sends another through an eventfd: the receiver polls `descriptor`
/// with its other files, then drains it. Signalling never blocks, so a realtime thread may
/// send one; several signals before a drain count as one.
public final class EventSignal: @unchecked Sendable {
    private let file: FileDescriptor
    public var descriptor: Int32 { file.rawValue }

    public init() {
        file = FileDescriptor(taking: reflex_event_fd())
    }

    public func signal() {
        var one: UInt64 = 1
        _ = retryingOnInterrupt { write(file.rawValue, &one, 8) }
    }

    /// Clears the signal (after poll said it was readable).
    public func drain() {
        var count: UInt64 = 0
        _ = retryingOnInterrupt { read(file.rawValue, &count, 8) }
    }

    /// Sleeps until signalled or `milliseconds` pass (-1: no limit), then clears the signal.
    public func wait(milliseconds: Int32 = -1) {
        if file.waitReadable(milliseconds: milliseconds) { drain() }
    }
}
