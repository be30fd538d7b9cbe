import Synchronization

/// Hands the newest value from one thread to another without a lock and without waiting:
/// the writer fills its own slot and swaps it into the middle, the reader swaps the middle
/// out when it holds something new. Neither side can block the other, so a realtime thread
/// may sit on either end. One writer thread and one reader thread.
///
/// Values are stored in place: a value without heap storage (or a class whose contents the
/// writer refills) moves across with no allocation.
public final class TripleBuffer<Value>: @unchecked Sendable {
    private let slots: UnsafeMutablePointer<Value>
    /// The middle slot's index (bits 0–1) and whether it is newer than what the reader has (bit 2).
    private let middle = Atomic<Int>(1)
    private static var freshBit: Int { 4 }
    /// Owned by the writer.
    private var back = 0
    /// Owned by the reader.
    private var front = 2

    /// `make` builds each of the three slots (for a class: three distinct objects).
    public init(_ make: () -> Value) {
        slots = .allocate(capacity: 3)
        for i in 0..<3 { (slots + i).initialize(to: make()) }
    }

    deinit {
        slots.deinitialize(count: 3)
        slots.deallocate()
    }

    // MARK: the writer's side

    /// The slot the writer fills next (only the writer may touch it).
    public var writable: Value {
        get { slots[back] }
        set { slots[back] = newValue }
    }

    /// Makes the writable slot the newest value.
    public func publish() {
        back = middle.exchange(back | TripleBuffer.freshBit, ordering: .acquiringAndReleasing) & 3
    }

    public func publish(_ value: Value) {
        slots[back] = value
        publish()
    }

    // MARK: the reader's side

    /// Takes the newest value if one came since the last call; returns whether one did.
    @discardableResult
    public func takeNewest() -> Bool {
        guard middle.load(ordering: .acquiring) & TripleBuffer.freshBit != 0 else { return false }
        front = middle.exchange(front, ordering: .acquiringAndReleasing) & 3
        return true
    }

    /// Whether a value newer than the one held is waiting to be taken.
    public var hasNewer: Bool { middle.load(ordering: .acquiring) & TripleBuffer.freshBit != 0 }

    /// The value the reader holds (the newest taken).
    public var current: Value { slots[front] }
}
