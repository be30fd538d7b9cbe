/// Which exposure each frame was taken with. A setting sent to the sensor after frame N
/// was captured shows from frame N + 1 + delay (sensors pipeline their controls; two frames
/// is common). Frames carry the driver's sequence numbers, so each can be matched to the
/// setting it really had. A fixed ring: no allocation per frame.
public struct ExposureHistory: Sendable {
    public static let capacity = 8
    public let delayFrames: Int
    private var firstSequence: [UInt32]
    private var settings: [ExposureSetting]
    private var newest = 0
    private var count = 1

    public init(initial: ExposureSetting, delayFrames: Int = 2) {
        self.delayFrames = max(delayFrames, 0)
        firstSequence = Array(repeating: 0, count: ExposureHistory.capacity)
        settings = Array(repeating: initial, count: ExposureHistory.capacity)
    }

    /// `setting` was sent to the sensor after the frame numbered `lastSequence` arrived.
    public mutating func sent(_ setting: ExposureSetting, after lastSequence: UInt32) {
        newest = (newest + 1) % ExposureHistory.capacity
        firstSequence[newest] = lastSequence &+ 1 &+ UInt32(delayFrames)
        settings[newest] = setting
        count = min(count + 1, ExposureHistory.capacity)
    }

    /// The setting the frame numbered `sequence` was taken with.
    public func setting(forFrame sequence: UInt32) -> ExposureSetting {
        var index = newest
        for _ in 0..<(count - 1) {
            // Sequence numbers wrap: compare by distance, not by value.
            if Int32(bitPattern: sequence &- firstSequence[index]) >= 0 { return settings[index] }
            index = (index + ExposureHistory.capacity - 1) % ExposureHistory.capacity
        }
        return settings[index]
    }
}
