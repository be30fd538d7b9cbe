import ReflexHardware
import Synchronization

/// Frame memory allocated once and lent out: the still mode's full-resolution frames, each
/// on its way to the card until the photo thread gives it back. Borrowed on the sensor
/// thread, given back from any thread.
public final class FramePool: @unchecked Sendable {
    private let copies: [FrameCopy]
    /// Bit i set: copy i is lent out.
    private let out = Atomic<UInt64>(0)

    public let frameBytes: Int

    public init(count: Int, frameBytes: Int) {
        precondition(count >= 1 && count <= 64)
        self.frameBytes = frameBytes
        copies = (0..<count).map { _ in FrameCopy(reserving: frameBytes) }
    }

    public var count: Int { copies.count }

    /// A copy no photo holds; nil while every one is out.
    public func borrow() -> FrameCopy? {
        let busy = out.load(ordering: .acquiring)
        for index in copies.indices where busy & (1 << UInt64(index)) == 0 {
            out.bitwiseOr(1 << UInt64(index), ordering: .acquiringAndReleasing)
            return copies[index]
        }
        return nil
    }

    /// A copy of this pool's is free again (one from elsewhere is ignored).
    public func giveBack(_ copy: FrameCopy) {
        guard let index = copies.firstIndex(where: { $0 === copy }) else { return }
        out.bitwiseAnd(~(1 << UInt64(index)), ordering: .acquiringAndReleasing)
    }
}
