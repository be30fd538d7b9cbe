/// When the photos of a shot planned ahead fall due (`reflex capture`'s burst, self-timer and
/// interval run), by the camera's own rules: a burst at `BurstTimer`'s rate, the self-timer's
/// shots after its delay and `SelfTimer.shotSpacing` apart, an interval run on its grid (a
/// photo that fell due while the one before was being taken is counted missed, the others
/// keep their times). Pure: the caller waits until each `nextDue` and asks `take(at:)`.
public struct ShotSchedule: Sendable {
    public enum Plan: Sendable, Equatable {
        /// Photos one after another from the start.
        case burst(Int)
        case selfTimer(SelfTimerDelay)
        case interval(IntervalSchedule)
    }

    public let plan: Plan
    private var timer: SelfTimer?
    private var run: IntervalSchedule?
    private var burstStart: Double?
    private var taken = 0

    public init(_ plan: Plan) { self.plan = plan }

    /// The schedule begins at `now`; the command began at `commandStartedAt`. The self-timer's
    /// delay and a run's first delay count from the command; a camera slower to start than
    /// the first delay moves a run's whole grid, rather than counting the photos due
    /// meanwhile as missed.
    public mutating func start(commandStartedAt: Double, now: Double) {
        taken = 0
        switch plan {
        case .burst:
            burstStart = now
        case .selfTimer(let delay):
            timer = SelfTimer(delay: delay)
            timer?.start(at: commandStartedAt)
        case .interval(var schedule):
            schedule.start(at: max(commandStartedAt, now - schedule.firstDelay))
            run = schedule
        }
    }

    /// When the next photo is due (nil: none left, or not started).
    public var nextDue: Double? {
        switch plan {
        case .burst(let count):
            guard let burstStart, taken < count else { return nil }
            return burstStart + Double(taken) * BurstTimer().interval
        case .selfTimer(let delay):
            return taken < delay.shots ? timer?.shotTime(taken) : nil
        case .interval:
            return run?.nextDue
        }
    }

    /// Whether a photo is to be taken at `now`: true when one is due (a run's older photos
    /// due meanwhile are counted missed), false when none is yet.
    public mutating func take(at now: Double) -> Bool {
        if case .interval = plan { return run?.next(at: now) != nil }
        guard let due = nextDue, now >= due else { return false }
        taken += 1
        return true
    }

    /// The interval run's photos passed over because a newer one was already due.
    public var missed: Int { run?.missed ?? 0 }

    /// The self-timer's whole seconds left before its next photo at `now`, as its countdown
    /// says them (nil: no countdown, or the photo is due).
    public func countdown(at now: Double) -> Int? {
        guard case .selfTimer = plan, let due = nextDue, due > now else { return nil }
        return Int((due - now).rounded(.up))
    }
}
