import ReflexHardware
import ReflexRuntime
import ReflexISP
import ReflexSystem
import Synchronization

/// A sink that must not lose frames silently (a video encoder, a raw-frame ring for zero
/// shutter lag, an analysis stream): a bounded queue of frame copies between the sensor
/// thread and one consumer thread. The sensor thread never waits for it: when every slot is
/// still held by the consumer, the frame is dropped and counted in `framesLost`, which the
/// camera's status reports. Slots are allocated once (again only when a larger mode starts
/// streaming), so a running queue allocates nothing a frame.
final class FrameQueue: FrameSink, @unchecked Sendable {
    let name: String
    private let slots: [FrameCopy]
    /// Frames taken by the consumer (its count) and queued by the sensor thread (its count);
    /// their difference is how many slots are full.
    private let taken = Atomic<Int>(0)
    private let queued = Atomic<Int>(0)
    private let lost = Atomic<Int>(0)
    private let wakeUp = EventSignal()

    /// `capacity` slots; `frameBytes`, when known, sizes them now rather than at the first frame.
    init(name: String, capacity: Int, frameBytes: Int = 0) {
        self.name = name
        slots = (0..<max(capacity, 1)).map { _ in FrameCopy() }
        for slot in slots { slot.reserve(frameBytes) }
    }

    var capacity: Int { slots.count }
    /// Frames queued since the start (the consumer has taken or will take each).
    var framesQueued: Int { queued.load(ordering: .acquiring) }
    var framesLost: Int { lost.load(ordering: .relaxed) }

    // MARK: the sensor thread's side

    func deliver(_ frame: SensorFrame) {
        let tail = queued.load(ordering: .relaxed)
        guard tail - taken.load(ordering: .acquiring) < slots.count else {
            lost.wrappingAdd(1, ordering: .relaxed)
            return
        }
        slots[tail % slots.count].fill(frame)
        queued.store(tail + 1, ordering: .releasing)
        wakeUp.signal()
    }

    // MARK: the consumer's side (one thread)

    /// Readable when a frame was queued.
    var wakeDescriptor: Int32 { wakeUp.descriptor }

    /// Sleeps until a frame is queued or `milliseconds` pass.
    func waitForFrame(milliseconds: Int32) { wakeUp.wait(milliseconds: milliseconds) }

    /// The oldest queued frame, or nil; hand it back with `release()` when done.
    func take() -> FrameCopy? {
        let head = taken.load(ordering: .relaxed)
        guard head < queued.load(ordering: .acquiring) else { return nil }
        return slots[head % slots.count]
    }

    /// Frees the slot `take()` returned, for the sensor thread to fill again.
    func release() {
        taken.wrappingAdd(1, ordering: .releasing)
    }
}

