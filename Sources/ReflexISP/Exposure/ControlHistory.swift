/// Which exposure each frame was taken with.
public typealias ExposureHistory = ControlHistory<ExposureSetting>

/// Which value of a sensor control (exposure, zoom) each frame was taken with. A value sent
/// to the sensor after frame N was captured shows from frame N + 1 + delay (sensors pipeline
/// their controls; two frames is common). Frames carry the driver's sequence numbers, so
/// each can be matched to the value it really had. A fixed ring: no allocation per frame.
public struct ControlHistory<Value: Sendable>: Sendable {
    public static var capacity: Int { 8 }
    public let delayFrames: Int
    private var firstSequence: [UInt32]
    private var settings: [Value]
    private var newest = 0
    private var count = 1

    public init(initial: Value, delayFrames: Int = 2) {
        self.delayFrames = max(delayFrames, 0)
        firstSequence = Array(repeating: 0, count: Self.capacity)
        settings = Array(repeating: initial, count: Self.capacity)
    }

    /// `setting` was sent to the sensor after the frame numbered `lastSequence` arrived.
    public mutating func sent(_ setting: Value, after lastSequence: UInt32) {
        newest = (newest + 1) % Self.capacity
        firstSequence[newest] = lastSequence &+ 1 &+ UInt32(delayFrames)
        settings[newest] = setting
        count = min(count + 1, Self.capacity)
    }

    /// The setting the frame numbered `sequence` was taken with.
    public func setting(forFrame sequence: UInt32) -> Value {
        var index = newest
        for _ in 0..<(count - 1) {
            // Sequence numbers wrap: compare by distance, not by value.
            if Int32(bitPattern: sequence &- firstSequence[index]) >= 0 { return settings[index] }
            index = (index + Self.capacity - 1) % Self.capacity
        }
        return settings[index]
    }
}

extension ControlHistory where Value == ExposureSetting {
    /// The longest exposure a frame after `sequence` can still have been given (the frames
    /// under way: up to the control's delay and one more); every value kept when no frame
    /// has come yet.
    public func longestExposure(after sequence: UInt32?) -> Double {
        guard let sequence else {
            var longest = 0.0
            for i in 0..<count { longest = max(longest, settings[(newest + Self.capacity - i) % Self.capacity].exposure) }
            return longest
        }
        var longest = 0.0
        for ahead in 1...(delayFrames + 1) { longest = max(longest, setting(forFrame: sequence &+ UInt32(ahead)).exposure) }
        return longest
    }
}
