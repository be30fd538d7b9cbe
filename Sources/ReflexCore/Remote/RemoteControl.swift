/// What a phone asks the camera to do, read from the form its page posts to `/api/control`
/// (`action=shutter&pressed=1`, `action=turn&dial=iso&steps=-1`). Each goes through the same
/// path as the camera's own keys and dials, so the camera's screen shows what the phone did.
public enum RemoteControl: Sendable, Equatable {
    /// The shutter button pressed or let go (held: a burst, as the camera's own).
    case shutter(pressed: Bool)
    /// Recording started or stopped (the record key).
    case record
    case mode(ShootingMode)
    /// A Pro dial turned by detents.
    case turn(Dial, steps: Int)
    case format(CaptureFormat)
    case exposureCompensation(ExposureCompensation)
    /// A tap on the live view, as a fraction of its width and height (meters there; with
    /// auto-zoom on, chooses the subject).
    case tap(x: Double, y: Double)
    /// The drive, the self-timer's delay, an interval run's time between photos.
    case drive(DriveMode)
    case selfTimer(SelfTimerDelay)
    case interval(seconds: Int)
    /// The zoom glided to a factor (within the camera's range), as a lens button does.
    case zoom(Double)
    case autoZoom(Bool)
    /// A Pro dial's value set outright (a computer on the USB cable: SetDevicePropValue),
    /// fitted to the sensor's scale as the dial would have it.
    case iso(ManualValue<ISOSpeed>)
    case shutterSpeed(ManualValue<ShutterSpeed>)
    case whiteBalance(WhiteBalance)

    /// The control a form asks for; nil for anything else (the server answers 400).
    public init?(form fields: [String: String]) {
        switch fields["action"] {
        case "shutter":
            guard let pressed = fields["pressed"], pressed == "1" || pressed == "0" else { return nil }
            self = .shutter(pressed: pressed == "1")
        case "record": self = .record
        case "mode":
            guard let mode = fields["mode"].flatMap(ShootingMode.init(rawValue:)) else { return nil }
            self = .mode(mode)
        case "turn":
            guard let dial = fields["dial"].flatMap(Dial.init(rawValue:)), let steps = fields["steps"].flatMap({ Int($0) }),
                  (-20...20).contains(steps), steps != 0 else { return nil }
            self = .turn(dial, steps: steps)
        case "format":
            guard let format = fields["format"].flatMap(CaptureFormat.init(rawValue:)) else { return nil }
            self = .format(format)
        case "ev":
            guard let thirds = fields["thirds"].flatMap({ Int($0) }), ExposureCompensation.range.contains(thirds) else { return nil }
            self = .exposureCompensation(ExposureCompensation(thirds: thirds))
        case "tap":
            guard let x = fields["x"].flatMap({ Double($0) }), let y = fields["y"].flatMap({ Double($0) }),
                  (0...1).contains(x), (0...1).contains(y) else { return nil }
            self = .tap(x: x, y: y)
        case "drive":
            guard let mode = fields["drive"].flatMap(DriveMode.init(rawValue:)) else { return nil }
            self = .drive(mode)
        case "self-timer":
            guard let delay = fields["delay"].flatMap(SelfTimerDelay.init(rawValue:)) else { return nil }
            self = .selfTimer(delay)
        case "interval":
            guard let seconds = fields["seconds"].flatMap({ Int($0) }), DriveSettings.intervalStops.contains(seconds) else { return nil }
            self = .interval(seconds: seconds)
        case "zoom":
            guard let factor = fields["factor"].flatMap({ Double($0) }), factor.isFinite, (0.1...100).contains(factor) else { return nil }
            self = .zoom(factor)
        case "auto-zoom":
            guard let on = fields["on"], on == "1" || on == "0" else { return nil }
            self = .autoZoom(on == "1")
        default: return nil
        }
    }
}
