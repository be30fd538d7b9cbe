/// Photos at an interval (1 s to 24 h), `count` of them (nil: until stopped), the first after
/// `firstDelay`. Kept on the monotonic clock, so midnight or a wall-clock change moves nothing.
/// Each photo is planned on the grid from the start: a photo the camera took late does not
/// push the next ones, and when several fell due while it could not take them (a stall) one is
/// taken for the newest and the others are counted as missed. Pure: the time comes in.
public struct IntervalSchedule: Sendable, Equatable {
    public static let intervals = 1.0...86_400.0

    public let interval: Double
    public let count: Int?
    public let firstDelay: Double
    public private(set) var startedAt: Double?
    /// Photos taken, and planned photos passed over because a newer one was already due.
    public private(set) var taken = 0
    public private(set) var missed = 0
    private var nextIndex = 0
    public private(set) var stopped = false

    /// Nil for an interval outside `intervals`, a count below 1 or a negative delay.
    public init?(interval: Double, count: Int?, firstDelay: Double = 0) {
        guard IntervalSchedule.intervals.contains(interval), count.map({ $0 >= 1 }) ?? true, firstDelay >= 0 else {
            return nil
        }
        (self.interval, self.count, self.firstDelay) = (interval, count, firstDelay)
    }

    public mutating func start(at time: Double) {
        startedAt = time
        (taken, missed, nextIndex, stopped) = (0, 0, 0, false)
    }

    public mutating func stop() { stopped = true }

    /// Done: every photo planned was taken or missed, or it was stopped.
    public var isFinished: Bool { stopped || count.map { nextIndex >= $0 } ?? false }

    /// Photos still to come (nil: until stopped).
    public var remaining: Int? { count.map { max($0 - nextIndex, 0) } }

    /// When planned photo `index` (from 0) is due.
    public func plannedTime(_ index: Int) -> Double? {
        startedAt.map { $0 + firstDelay + Double(index) * interval }
    }

    /// The planned time of the next photo, for "next in …" on screen.
    public var nextDue: Double? { isFinished ? nil : plannedTime(nextIndex) }

    /// The planned time of the photo due by `now` (the newest, if several are), or nil.
    public mutating func next(at now: Double) -> Double? {
        guard !isFinished, let first = plannedTime(0), now >= plannedTime(nextIndex)! else { return nil }
        var newest = Int(((now - first) / interval).rounded(.down))
        if let count { newest = min(newest, count - 1) }
        missed += newest - nextIndex
        nextIndex = newest + 1
        taken += 1
        return plannedTime(newest)
    }

    /// How many of the remaining photos fit on a card with `freeBytes`, at `bytesPerPhoto`
    /// each, keeping `reserveBytes` free; nil when they all do (or the run has no count and
    /// the card holds at least an hour of it).
    public func shortfall(freeBytes: Int64, bytesPerPhoto: Int64, reserveBytes: Int64 = 0) -> Int? {
        let fit = max(freeBytes - reserveBytes, 0) / max(bytesPerPhoto, 1)
        let wanted = remaining.map(Int64.init) ?? Int64((3600 / interval).rounded(.up))
        return fit >= wanted ? nil : Int(fit)
    }
}
