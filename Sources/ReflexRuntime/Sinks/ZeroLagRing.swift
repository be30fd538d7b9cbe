import ReflexHardware
import ReflexCore
import Synchronization

/// Zero shutter lag: the last few frames, kept so that a press takes the frame that was
/// under way when the finger came down, even though the press reaches the sensor thread a
/// frame or two later. A sink on the sensor thread: every frame is copied into the oldest
/// slot.
///
/// A photo leaves the ring without a copy: its slot's memory is handed to the photo's
/// consumer and a spare takes its place; the consumer gives it back when the files are
/// written. The ring and the spares are allocated once (the memory budget decides how many):
/// nothing is allocated a frame or a photo. With every spare still out, a press waits for one.
///
/// The sensor thread calls `deliver`, `choose` and `take`; the photo's thread only `giveBack`.
public final class ZeroLagRing: FrameSink, @unchecked Sendable {
    public let name = "zero-lag ring"
    /// The ring's slots (`ringFrames`) then the spares: every copy there is.
    private let copies: [FrameCopy]
    /// For each ring position, the copy there, whether it holds a frame, and whether a
    /// photo waits for that frame (no spare was free yet: new frames pass it by) (sensor thread).
    private var ring: [Int]
    private var filled: [Bool]
    private var reserved: [Bool]
    /// The position the next frame goes to: the oldest.
    private var next = 0
    /// The ring positions in use (fewer under memory pressure) and the photos that may hold
    /// a frame at once (sensor thread).
    private var activeRing: Int
    private var photosOutLimit: Int
    /// Copies handed out and not yet given back, one bit each (given back from another thread).
    private let out = Atomic<UInt64>(0)
    /// The ring's frames as the shutter's rule reads them, oldest first (made without allocating).
    private let moments: UnsafeMutableBufferPointer<ShutterMoment.Frame>
    public private(set) var framesLost = 0

    /// `ringFrames` kept, `spares` photos on their way at once, each `frameBytes` (grown if a
    /// larger mode streams).
    public init(ringFrames: Int, spares: Int, frameBytes: Int) {
        let ringFrames = max(ringFrames, 1), spares = max(spares, 1)
        precondition(ringFrames + spares <= 64, "at most 64 copies")
        copies = (0..<(ringFrames + spares)).map { _ in FrameCopy(reserving: frameBytes) }
        ring = Array(0..<ringFrames)
        activeRing = ringFrames
        photosOutLimit = spares
        filled = Array(repeating: false, count: ringFrames)
        reserved = Array(repeating: false, count: ringFrames)
        moments = .allocate(capacity: ringFrames)
        moments.initialize(repeating: ShutterMoment.Frame(sequence: 0, timestampNanoseconds: 0, exposureSeconds: 0))
    }

    deinit { moments.deallocate() }

    /// Photos that can be on their way at once (each holds a frame's memory) at the least.
    public static let defaultSpares = 4
    /// A held shutter's burst (10 fps for 3 s) needs a spare for each photo the photo thread
    /// has not developed yet: up to this many, where the budget has room.
    public static let burstSpares = 32

    /// A ring for frames of `frameBytes` within `budgetBytes`: as many frames as fit beside
    /// the spares, at least 3 (a press reaches the sensor thread a frame or two late), at most
    /// 12; then spares for a burst from what is left, at least 4, at most 32. (Spares are
    /// allocated once a frame first needs one: an unused spare costs nothing.)
    public static func sized(budgetBytes: Int, frameBytes: Int) -> ZeroLagRing {
        let frames = budgetBytes / max(frameBytes, 1)
        let ring = min(max(frames - defaultSpares, 3), 12)
        let spares = min(max(frames - ring, defaultSpares), burstSpares)
        return ZeroLagRing(ringFrames: ring, spares: spares, frameBytes: 0)
    }

    public var ringFrames: Int { ring.count }
    /// The spares: photos on their way at once at most.
    public var spares: Int { copies.count - ring.count }

    /// Under memory pressure: keeps `ringFrames` of the ring (at least 1) and lets at most
    /// `photosOut` photos hold a frame at once (at least 1); the memory of every copy that
    /// leaves use goes back to the system now. The full sizes again with `limit(ringFrames:
    /// self.ringFrames, photosOut: spares)` (their memory comes back as frames fill it).
    /// Returns the bytes given back. Sensor thread.
    @discardableResult
    public func limit(ringFrames frames: Int, photosOut: Int) -> Int {
        activeRing = min(max(frames, 1), ring.count)
        photosOutLimit = min(max(photosOut, 1), spares)
        if next >= activeRing { next = 0 }
        var released = 0
        // Positions past the active ones, unless a photo waits for their frame.
        for position in activeRing..<ring.count where !reserved[position] {
            filled[position] = false
            released += copies[ring[position]].bytes.count
            copies[ring[position]].release()
        }
        // Spares not out with a photo.
        let busy = out.load(ordering: .acquiring)
        for index in copies.indices where busy & (1 << UInt64(index)) == 0 && !ring.contains(index) {
            released += copies[index].bytes.count
            copies[index].release()
        }
        return released
    }

    /// The ring's frames in use now, and the photos allowed out at once.
    public var activeRingFrames: Int { activeRing }
    public var photosOutAllowed: Int { photosOutLimit }

    /// Bytes of frame memory held now (the ring's and every spare's).
    public var reservedBytes: Int { copies.reduce(0) { $0 + $1.bytes.count } }

    // MARK: the sensor thread's side

    public func deliver(_ frame: SensorFrame) {
        guard frame.isComplete else { return }
        // The oldest position no photo waits for; with every one waited for, the frame is not kept.
        var steps = 0
        while reserved[next] && steps < activeRing {
            next = (next + 1) % activeRing
            steps += 1
        }
        guard !reserved[next] else { return }
        copies[ring[next]].fill(frame)
        filled[next] = true
        next = (next + 1) % activeRing
    }

    /// No photo waits for a kept frame any more (their presses were cancelled).
    public func forgetWaitingPhotos() {
        for i in reserved.indices { reserved[i] = false }
    }

    /// Forgets every frame (a new stream: the old frames are of another mode).
    public func clear() {
        for i in filled.indices { (filled[i], reserved[i]) = (false, false) }
    }

    /// Which kept frame `moment`'s press takes, or wait for more.
    public func choose(_ moment: ShutterMoment) -> ShutterMoment.Choice {
        var count = 0
        for step in 0..<ring.count {
            let position = (next + step) % ring.count
            guard filled[position] else { continue }
            let copy = copies[ring[position]]
            moments[count] = ShutterMoment.Frame(sequence: copy.sequence, timestampNanoseconds: copy.timestampNanoseconds,
                                                 exposureSeconds: copy.exposure.exposure)
            count += 1
        }
        // Oldest first (a frame held for a photo sits out of the ring's order): an insertion
        // sort of a dozen, in place.
        for i in 1..<max(count, 1) {
            var j = i
            while j > 0 && moments[j - 1].timestampNanoseconds > moments[j].timestampNanoseconds {
                moments.swapAt(j - 1, j)
                j -= 1
            }
        }
        return moment.choose(from: UnsafeBufferPointer(rebasing: moments[0..<count]))
    }

    /// Takes the kept frame `sequence` out of the ring for a photo; a spare fills its place.
    /// Nil when the frame is no longer kept, or when every spare is still out: then the frame
    /// is held in the ring (new frames pass it by) until a spare comes back; ask again.
    public func take(sequence: UInt32) -> FrameCopy? {
        guard let position = ring.indices.first(where: { filled[$0] && copies[ring[$0]].sequence == sequence }) else {
            return nil
        }
        guard let spare = freeSpare() else {
            reserved[position] = true
            return nil
        }
        return lend(position, replacingWith: spare)
    }

    /// Whether frame `sequence` is still kept (a photo held for may wait for a spare).
    public func keeps(sequence: UInt32) -> Bool {
        ring.indices.contains { filled[$0] && copies[ring[$0]].sequence == sequence }
    }

    /// The copy at ring `position` goes out with a photo; `spare` takes its place.
    private func lend(_ position: Int, replacingWith spare: Int) -> FrameCopy {
        let taken = ring[position]
        out.bitwiseOr(1 << UInt64(taken), ordering: .acquiringAndReleasing)
        ring[position] = spare
        (filled[position], reserved[position]) = (false, false)
        return copies[taken]
    }

    /// Enhanced RAW: up to `count` other kept frames, the nearest to `sequence` first, each
    /// taken out of the ring as `take` takes one, while spares last (it never waits: a merge
    /// of fewer frames is still a photo), each handed to `take`. Sensor thread; allocates nothing.
    public func takeAlternates(around sequence: UInt32, count: Int, _ take: (FrameCopy) -> Void) {
        var wanted = count
        while wanted > 0 {
            var nearest: Int?
            var distance = UInt32.max
            for position in 0..<activeRing where filled[position] && !reserved[position] {
                let other = copies[ring[position]].sequence
                guard other != sequence else { continue }
                let gap = other > sequence ? other - sequence : sequence - other
                if gap < distance { (nearest, distance) = (position, gap) }
            }
            guard let position = nearest, let spare = freeSpare() else { return }
            take(lend(position, replacingWith: spare))
            wanted -= 1
        }
    }

    /// Photos taken and not yet given back.
    public var photosOut: Int { out.load(ordering: .acquiring).nonzeroBitCount }

    /// A copy neither in the ring nor out with a photo (none while the photos allowed out are).
    private func freeSpare() -> Int? {
        let busy = out.load(ordering: .acquiring)
        guard busy.nonzeroBitCount < photosOutLimit else { return nil }
        for index in copies.indices where busy & (1 << UInt64(index)) == 0 && !ring.contains(index) { return index }
        return nil
    }

    // MARK: the photo's side

    /// The photo's frame is no longer needed: its memory goes back to the ring as a spare.
    public func giveBack(_ copy: FrameCopy) {
        guard let index = copies.firstIndex(where: { $0 === copy }) else { return }
        out.bitwiseAnd(~(1 << UInt64(index)), ordering: .acquiringAndReleasing)
    }
}
