import Synchronization

/// A bounded queue from one thread to another, in order, with no lock: the sender never
/// waits (a full queue refuses), the receiver sleeps on an eventfd: its own, or one it shares
/// with other messages (`wakes`). Its slots are made once,
/// so values without heap storage of their own (or references to objects made beforehand)
/// cross with no allocation. One sending thread and one receiving thread.
public final class HandOffQueue<Element>: @unchecked Sendable {
    private let slots: UnsafeMutablePointer<Element?>
    public let capacity: Int
    private let sent = Atomic<Int>(0)
    private let received = Atomic<Int>(0)
    private let wakeUp: EventSignal

    /// `wakes`: the receiver's eventfd, when it waits for more than this queue.
    public init(capacity: Int, wakes: EventSignal? = nil) {
        wakeUp = wakes ?? EventSignal()
        self.capacity = max(capacity, 1)
        slots = .allocate(capacity: self.capacity)
        slots.initialize(repeating: nil, count: self.capacity)
    }

    deinit {
        slots.deinitialize(count: capacity)
        slots.deallocate()
    }

    /// Elements sent and not yet received.
    public var count: Int { sent.load(ordering: .acquiring) - received.load(ordering: .acquiring) }

    // MARK: the sender's side

    /// Queues `element`; false when the queue is full (nothing was queued).
    @discardableResult
    public func send(_ element: Element) -> Bool {
        let tail = sent.load(ordering: .relaxed)
        guard tail - received.load(ordering: .acquiring) < capacity else { return false }
        slots[tail % capacity] = element
        sent.store(tail + 1, ordering: .releasing)
        wakeUp.signal()
        return true
    }

    // MARK: the receiver's side

    /// Sleeps until something is sent or `milliseconds` pass.
    public func wait(milliseconds: Int32) { wakeUp.wait(milliseconds: milliseconds) }

    /// The oldest element, or nil when there is none.
    public func receive() -> Element? {
        let head = received.load(ordering: .relaxed)
        guard head < sent.load(ordering: .acquiring) else { return nil }
        let element = slots[head % capacity]
        slots[head % capacity] = nil
        received.store(head + 1, ordering: .releasing)
        return element
    }
}
