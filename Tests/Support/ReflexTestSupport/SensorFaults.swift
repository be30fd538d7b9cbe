import ReflexHardware

/// Every `period`-th frame of the simulated sensor damaged, the kinds of `FrameDamage` in turn:
/// what tests of the sensor thread feed it.
public final class SensorFaults: FrameFaults {
    /// Frames between two damaged ones.
    public let period: Int

    public init(every period: Int) { self.period = max(0, period) }

    public func damage(toFrame sequence: UInt32) -> FrameDamage? {
        guard period > 0, sequence > 0, Int(sequence) % period == 0 else { return nil }
        return FrameDamage.allCases[(Int(sequence) / period - 1) % FrameDamage.allCases.count]
    }
}
