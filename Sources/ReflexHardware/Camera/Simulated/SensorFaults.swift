/// The damage bad hardware does to frames, as the simulated sensor can do it on purpose:
/// every `period`-th frame, in turn, cut short (a CSI-2 link losing lines: `bytesused` under
/// the frame's size), flagged by the driver (V4L2_BUF_FLAG_ERROR), or garbage (a frame of
/// noise the driver took for good). What tests of the sensor thread feed it.
public struct SensorFaults: Sendable, Equatable {
    public enum Damage: Sendable, Equatable, CaseIterable {
        case cutShort, flaggedError, garbage
    }

    /// Frames between two damaged ones (0: none damaged).
    public let period: Int

    public init(every period: Int) { self.period = max(0, period) }

    public static let none = SensorFaults(every: 0)

    /// The damage done to frame `sequence` (the driver's counter), if any: the kinds in turn.
    public func damage(toFrame sequence: UInt32) -> Damage? {
        guard period > 0, sequence > 0, Int(sequence) % period == 0 else { return nil }
        return Damage.allCases[(Int(sequence) / period - 1) % Damage.allCases.count]
    }
}
