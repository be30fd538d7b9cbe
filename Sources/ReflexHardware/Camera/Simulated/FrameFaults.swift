/// Damage done on purpose to some of the simulated sensor's frames, as bad hardware does it:
/// what tests of the sensor thread give the sensor (the tests' `SensorFaults`,
/// ReflexTestSupport). The product's sensor has none.
public protocol FrameFaults: AnyObject, Sendable {
    /// The damage done to frame `sequence` (the driver's counter), if any.
    func damage(toFrame sequence: UInt32) -> FrameDamage?
}

/// The damage a frame can come with from a real sensor: cut short (a CSI-2 link losing lines:
/// `bytesused` under the frame's size), flagged by the driver (V4L2_BUF_FLAG_ERROR), or
/// garbage (a frame of noise the driver took for good).
public enum FrameDamage: Sendable, Equatable, CaseIterable {
    case cutShort, flaggedError, garbage
}
