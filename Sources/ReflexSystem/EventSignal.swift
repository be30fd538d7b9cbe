import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// A wake-up one thread sends another through an eventfd: the receiver polls `descriptor`
/// with its other files, then drains it. Signalling never blocks, so a realtime thread may
/// send one; several signals before a drain count as one.
public final class EventSignal: @unchecked Sendable {
    public let descriptor: Int32

    public init() {
        descriptor = reflex_event_fd()
    }

    deinit { close(descriptor) }

    public func signal() {
        var one: UInt64 = 1
        _ = write(descriptor, &one, 8)
    }

    /// Clears the signal (after poll said it was readable).
    public func drain() {
        var count: UInt64 = 0
        _ = read(descriptor, &count, 8)
    }
}

/// Runs `body` on a thread of its own: a real pthread, because the realtime loop and the
/// background workers must not share Swift's cooperative pool. Whatever `body` captures lives
/// until it returns. Nil (and nothing runs) if the thread cannot be made.
public func startThread(_ body: @escaping @Sendable () -> Void) -> pthread_t? {
    final class Body: @unchecked Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
    let context = Unmanaged.passRetained(Body(body))
    var thread = pthread_t()
    guard pthread_create(&thread, nil, { context in
        Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
        return nil
    }, context.toOpaque()) == 0 else {
        context.release()
        return nil
    }
    return thread
}
