import ReflexCore

/// An interval run as the screen shows it: shots taken, of how many (nil: until stopped), and
/// whole seconds to the next (nil: none planned).
public struct IntervalProgress: Sendable, Equatable {
    public var taken: Int
    public var count: Int?
    public var secondsToNext: Int?

    public init(taken: Int, count: Int?, secondsToNext: Int?) {
        (self.taken, self.count, self.secondsToNext) = (taken, count, secondsToNext)
    }

    /// `run` at `now`: the seconds to its next shot rounded up (a shot due now shows 0).
    public init(_ run: IntervalSchedule, at now: Double) {
        self.init(taken: run.taken, count: run.count, secondsToNext: run.nextDue.map { max(Int(($0 - now).rounded(.up)), 0) })
    }

    /// When the seconds shown next change after `now` (nil: nothing planned).
    public static func nextChange(of run: IntervalSchedule, after now: Double) -> Double? {
        guard let due = run.nextDue else { return nil }
        let left = due - now
        guard left > 0 else { return now }
        return now + left - (left.rounded(.up) - 1)
    }
}
