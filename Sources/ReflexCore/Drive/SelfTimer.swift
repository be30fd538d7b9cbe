/// The self-timer's countdown: a press starts it, the photo is due `delay.seconds` later (the
/// next ones of a three-shot timer `shotSpacing` apart), a second press or a tap cancels it.
/// Each whole second left is announced once (the countdown on screen, a tick on the vibrator,
/// the status LED's blink). Pure: the time comes in as an argument.
public struct SelfTimer: Sendable, Equatable {
    /// Between the shots of a three-shot timer: time to blink, not to walk away.
    public static let shotSpacing = 1.0

    public let delay: SelfTimerDelay
    public private(set) var startedAt: Double?
    private var shotsTaken = 0
    private var lastAnnounced: Int?

    public init(delay: SelfTimerDelay) { self.delay = delay }

    public var isRunning: Bool { startedAt != nil }

    public mutating func start(at time: Double) {
        startedAt = time
        shotsTaken = 0
        lastAnnounced = nil
    }

    public mutating func cancel() {
        startedAt = nil
        lastAnnounced = nil
    }

    /// When shot `index` (from 0) is due.
    public func shotTime(_ index: Int) -> Double? {
        startedAt.map { $0 + delay.seconds + Double(index) * SelfTimer.shotSpacing }
    }

    /// Whole seconds left before the first shot at `now`, rounded up (10 … 1), 0 once it is due.
    public func secondsLeft(at now: Double) -> Int? {
        guard let first = shotTime(0) else { return nil }
        return max(Int((first - now).rounded(.up)), 0)
    }

    /// The seconds left, once each time it changes (at the start, then every second down to
    /// 1): what the countdown, the vibrator's tick and the LED's blink follow. Nil between.
    public mutating func announcement(at now: Double) -> Int? {
        guard let left = secondsLeft(at: now), left > 0, left != lastAnnounced else { return nil }
        lastAnnounced = left
        return left
    }

    /// How long the status light stays lit at the start of each second of the countdown.
    public static let blinkSeconds = 0.2

    /// The status light's state at `now`: lit for the first fifth of each counted second.
    public func lightOn(at now: Double) -> Bool {
        guard let first = shotTime(0), now < first else { return false }
        let left = first - now
        return left.rounded(.up) - left < SelfTimer.blinkSeconds
    }

    /// When something the photographer sees, feels or hears next changes after `now`: a
    /// second of the countdown begins, the light goes out, or a shot falls due. Nil: stopped.
    public func nextChange(after now: Double) -> Double? {
        guard let first = shotTime(0) else { return nil }
        guard now < first else { return shotTime(shotsTaken) }
        let left = first - now
        let intoSecond = left.rounded(.up) - left
        let untilDark = SelfTimer.blinkSeconds - intoSecond
        let untilNextSecond = left - (left.rounded(.up) - 1)
        return now + (untilDark > 0 ? min(untilDark, untilNextSecond) : untilNextSecond)
    }

    /// The next shot's time if it is due by `now` (its own time: the zero-lag ring holds that
    /// frame, so a late loop still takes the photo of that moment); call until nil. After the
    /// last, the timer stops.
    public mutating func nextShot(at now: Double) -> Double? {
        guard let due = shotTime(shotsTaken), due <= now else { return nil }
        shotsTaken += 1
        if shotsTaken == delay.shots { cancel() }
        return due
    }
}
