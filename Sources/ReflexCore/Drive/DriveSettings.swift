/// The drive mode and each mode's own choices, remembered together: a photographer who
/// brackets at 5 frames ±2/3 finds the same bracket the next time, whatever was used between.
public struct DriveSettings: Sendable, Hashable {
    public var mode: DriveMode = .single
    public var selfTimer: SelfTimerDelay = .tenSeconds
    /// 3, 5 or 7 frames (`BracketPlan.frameChoices`).
    public var bracketFrames = 3
    /// Between a bracket's frames, in thirds of a stop (1 … 9: ±1/3 … ±3 EV).
    public var bracketStepThirds = 3
    /// Interval shooting: seconds between photos (`IntervalSchedule.intervals`), how many
    /// (nil: until stopped), and the wait before the first.
    public var intervalSeconds = 10
    public var intervalCount: Int? = 100
    public var intervalDelaySeconds = 0
    /// The timelapse movie made of an interval run's JPEGs at its end, at this many frames a
    /// second (`timelapseRates`); nil: none.
    public var timelapseFramesPerSecond: Int? = 30

    public init() {}

    /// The most photos an interval run takes: ten thousand (a day and more at 10 s; the
    /// card is checked against the count at the start).
    public static let countRange = 1...9999

    /// The delays a photographer steps through with a dial (the settings take any whole
    /// second within `IntervalSchedule.intervals`).
    public static let intervalStops = [1, 2, 3, 5, 10, 15, 20, 30, 45, 60, 90, 120, 180, 300, 600, 900, 1200, 1800,
                                       2700, 3600, 7200, 10_800, 21_600, 43_200, 86_400]
    public static let countStops: [Int?] = [10, 20, 30, 50, 100, 200, 300, 500, 1000, 2000, 5000, 9999, nil]
    public static let delayStops = [0, 2, 5, 10, 30, 60, 300, 600, 1800, 3600]
    /// A timelapse's frame rates (the menu's order: off last).
    public static let timelapseRates: [Int?] = [24, 25, 30, nil]

    /// The bracket as planned (the settings only ever hold valid choices).
    public var bracket: BracketPlan { BracketPlan(frames: bracketFrames, stepThirds: bracketStepThirds)! }

    /// The interval run as planned, not started.
    public var intervalSchedule: IntervalSchedule {
        IntervalSchedule(interval: Double(intervalSeconds), count: intervalCount, firstDelay: Double(intervalDelaySeconds))!
    }

    /// The short form the top bar shows while the drive is not Single: "Burst", "Timer 10s",
    /// "Timer 10s ×3", "BKT 5 ±2/3", "INT 30s".
    public var badge: String? {
        switch mode {
        case .single: nil
        case .burst: "Burst"
        case .selfTimer: "Timer " + selfTimer.label
        case .bracketing: "BKT \(bracketFrames) ±" + DriveSettings.stepText(bracketStepThirds)
        case .interval: "INT " + DurationText.text(intervalSeconds)
        }
    }

    /// A bracket's step as cameras print it: "1/3", "1", "1 2/3".
    public static func stepText(_ thirds: Int) -> String {
        String(ExposureCompensation(thirds: thirds).description.drop { $0 == "+" })
    }
}

extension SelfTimerDelay {
    /// As the menu and the top bar show it.
    public var label: String {
        switch self {
        case .twoSeconds: "2s"
        case .tenSeconds: "10s"
        case .tenSecondsThreeShots: "10s ×3"
        }
    }
}

extension DriveMode {
    public var label: String {
        switch self {
        case .single: "Single"
        case .burst: "Burst"
        case .selfTimer: "Self-timer"
        case .bracketing: "Bracketing"
        case .interval: "Interval"
        }
    }
}
