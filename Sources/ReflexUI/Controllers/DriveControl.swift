import ReflexCore

/// What the shutter's press means in each drive, and the photos the drive takes by itself:
/// a burst while the shutter is held, the self-timer's countdown, an interval run's photos
/// and its end (with the timelapse of a run that took photos), and the screen dimmed while a
/// run waits untouched. Time comes in as seconds; nothing here reads a clock.
public struct DriveControl: Sendable {
    /// Nothing pressed, touched or turned for this long dims an interval run's screen.
    public static let dimAfter = 10.0

    /// The shutter held: a burst.
    public private(set) var burst = BurstTimer()
    /// The self-timer counting down to its photo (nil: none).
    public private(set) var selfTimer: SelfTimer?
    /// The interval run under way (nil: none).
    public private(set) var intervalRun: IntervalSchedule?
    /// Interval runs started so far: each run's photos carry its number (`timedPhotoRun`).
    public private(set) var intervalRunsStarted = 0
    /// The run the photo `nextTimedPhoto` returned last is of (nil: the self-timer's).
    public private(set) var timedPhotoRun: Int?
    /// How the last run ended, once (`takeIntervalEnding`).
    private var intervalEnding: String?
    /// A run that ended having taken photos, once (`takeEndedRun`): its timelapse is made.
    private var endedRun: EndedRun?
    /// When the photographer last pressed, touched or turned anything.
    private var lastInputAt = -Double.infinity

    /// An interval run that ended: its number and the photos it took.
    public struct EndedRun: Sendable, Equatable {
        public let run: Int
        public let photos: Int

        public init(run: Int, photos: Int) { (self.run, self.photos) = (run, photos) }
    }

    public init() {}

    /// The shutter pressed at `now` in a photo drive (Video is the record button's): a photo
    /// (a burst begins where held presses may take one), the run or the countdown started, or
    /// stopped by a second press.
    mutating func press(drive: DriveSettings, burstAllowed: Bool, at now: Double, into outcome: inout InterfaceController.Outcome) {
        switch drive.mode {
        case .interval:
            if let run = intervalRun {
                endInterval(InterfaceText.intervalStopped(run, because: nil))
                outcome.notice = takeIntervalEnding()
            } else {
                var run = drive.intervalSchedule
                run.start(at: now)
                intervalRun = run
                intervalRunsStarted += 1
                outcome.notice = InterfaceText.intervalStarted(run)
            }
            outcome.confirmed = true
        case .selfTimer:
            if selfTimer != nil {
                cancelSelfTimer(into: &outcome)
                return
            }
            selfTimer = SelfTimer(delay: drive.selfTimer)
            selfTimer?.start(at: now)
            outcome.confirmed = true
        default:
            outcome.capture = now
            if burstAllowed && drive.mode == .burst { burst.press(at: now) }
        }
    }

    /// The shutter let go: a burst ends.
    mutating func release(at now: Double) { burst.release(at: now) }

    /// The countdown stopped by a touch or a second press.
    mutating func cancelSelfTimer(into outcome: inout InterfaceController.Outcome) {
        selfTimer = nil
        outcome.confirmed = true
        outcome.notice = InterfaceText.selfTimerCancelled
    }

    /// The next burst photo due by `now` while the shutter is held (call until nil).
    public mutating func nextBurstPhoto(at now: Double) -> Double? { burst.next(at: now) }

    /// The self-timer's or the interval run's next photo due by `now`, at its planned time
    /// (call until nil); the timer ends after its last, the run after its count, or when the
    /// menu changed the drive or the capture under it.
    public mutating func nextTimedPhoto(at now: Double, settings: CameraSettings) -> Double? {
        if selfTimer != nil {
            defer { if selfTimer?.isRunning == false { selfTimer = nil } }
            timedPhotoRun = nil
            return selfTimer?.nextShot(at: now)
        }
        guard intervalRun != nil else { return nil }
        guard settings.drive.mode == .interval && settings.capture == .photo else {
            stopInterval(because: "the drive changed")
            return nil
        }
        guard let due = intervalRun!.next(at: now) else { return nil }
        timedPhotoRun = intervalRunsStarted
        if intervalRun!.isFinished { endInterval(InterfaceText.intervalDone(intervalRun!)) }
        return due
    }

    /// The photographer did something at `now` (an interval run's screen wakes).
    mutating func noteInput(at now: Double) { lastInputAt = now }

    /// An interval run waits between photos and nothing was touched for `dimAfter` seconds.
    public func screenDimmed(at now: Double) -> Bool {
        intervalRun != nil && now - lastInputAt >= DriveControl.dimAfter
    }

    /// The interval run stopped by the camera (the card is full, gone or read-only), with why.
    public mutating func stopInterval(because reason: String) {
        guard let run = intervalRun else { return }
        endInterval(InterfaceText.intervalStopped(run, because: reason))
    }

    /// How the last interval run ended, once (for the notice).
    public mutating func takeIntervalEnding() -> String? {
        defer { intervalEnding = nil }
        return intervalEnding
    }

    /// The interval run that ended last with photos, once.
    public mutating func takeEndedRun() -> EndedRun? {
        defer { endedRun = nil }
        return endedRun
    }

    /// The countdown's seconds left, once as each begins (a tick felt, the LED's blink).
    public mutating func countdownAnnouncement(at now: Double) -> Int? { selfTimer?.announcement(at: now) }

    private mutating func endInterval(_ text: String) {
        if let run = intervalRun, run.taken > 0 { endedRun = EndedRun(run: intervalRunsStarted, photos: run.taken) }
        intervalRun = nil
        intervalEnding = text
    }
}
