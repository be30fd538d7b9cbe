/// One line of the quick menu: a setting the dials do not reach, its name, its value as
/// shown, and a step through its values.
/// A drive mode's own lines follow the Drive line (the last, so that they open below it and
/// move no other line), and show only while that mode is chosen.
public enum QuickMenuItem: Int, Sendable, CaseIterable {
    case format, exposureCompensation, zebras, focusPeaking, framingGrid, jpegQuality, geotag, geotagPrecision, autoZoom,
         autoZoomFraming, remote, forgetPhones, usb, drive, selfTimer, bracketFrames, bracketStep, interval, intervalCount, intervalDelay, timelapse

    /// The lines the menu shows for `settings`, in order.
    public static func lines(for settings: CameraSettings) -> [QuickMenuItem] {
        allCases.filter { $0.isShown(for: settings) }
    }

    /// Whether the menu shows this line for `settings` (a drive mode's only while it is chosen,
    /// Forget phones only while the remote is on).
    public func isShown(for settings: CameraSettings) -> Bool {
        if self == .forgetPhones { return settings.remote }
        return driveMode.map { $0 == settings.drive.mode } ?? true
    }

    /// The line the menu shows at `index` for `settings` (nil past the last). Walks the cases
    /// without making an array: the input path allocates nothing.
    public static func line(at index: Int, for settings: CameraSettings) -> QuickMenuItem? {
        var shown = -1
        for raw in 0..<caseCount {
            let item = QuickMenuItem(rawValue: raw)!
            if item.isShown(for: settings) { shown += 1 }
            if shown == index { return item }
        }
        return nil
    }

    /// The line shown next after this one (`direction` 1) or before it (-1), round the menu.
    public func neighbour(_ direction: Int, for settings: CameraSettings) -> QuickMenuItem {
        var raw = rawValue
        repeat {
            raw = (raw + direction % QuickMenuItem.caseCount + QuickMenuItem.caseCount) % QuickMenuItem.caseCount
        } while !QuickMenuItem(rawValue: raw)!.isShown(for: settings)
        return QuickMenuItem(rawValue: raw)!
    }

    private static let caseCount = allCases.count

    /// The most lines the menu ever shows (its panel is sized for them).
    public static let mostLines = DriveMode.allCases.map { mode in
        var settings = CameraSettings()
        settings.drive.mode = mode
        settings.remote = true
        return lines(for: settings).count
    }.max()!

    /// The drive mode whose line this is (nil: a line always shown).
    private var driveMode: DriveMode? {
        switch self {
        case .selfTimer: .selfTimer
        case .bracketFrames, .bracketStep: .bracketing
        case .interval, .intervalCount, .intervalDelay, .timelapse: .interval
        default: nil
        }
    }

    public var title: String {
        switch self {
        case .format: "Format"
        case .drive: "Drive"
        case .selfTimer: "Self-timer"
        case .bracketFrames: "Bracket frames"
        case .bracketStep: "Bracket step"
        case .interval: "Interval"
        case .intervalCount: "Shots"
        case .intervalDelay: "First shot after"
        case .timelapse: "Timelapse"
        case .exposureCompensation: "Exposure compensation"
        case .zebras: "Zebras"
        case .focusPeaking: "Focus peaking"
        case .framingGrid: "Framing grid"
        case .jpegQuality: "JPEG quality"
        case .geotag: "Geotag"
        case .geotagPrecision: "Location precision"
        case .autoZoom: "Auto zoom"
        case .autoZoomFraming: "Auto zoom framing"
        case .remote: "Remote"
        case .forgetPhones: "Paired phones"
        case .usb: "USB"
        }
    }

    public func value(_ settings: CameraSettings) -> String {
        func onOff(_ on: Bool) -> String { on ? "On" : "Off" }
        switch self {
        case .format: return settings.format.label
        case .drive: return settings.drive.mode.label
        case .selfTimer: return settings.drive.selfTimer.label
        case .bracketFrames: return "\(settings.drive.bracketFrames)"
        case .bracketStep: return "±" + DriveSettings.stepText(settings.drive.bracketStepThirds) + " EV"
        case .interval: return DurationText.text(settings.drive.intervalSeconds)
        case .intervalCount: return settings.drive.intervalCount.map { "\($0)" } ?? "Unlimited"
        case .intervalDelay: return settings.drive.intervalDelaySeconds == 0 ? "None" : DurationText.text(settings.drive.intervalDelaySeconds)
        case .timelapse: return settings.drive.timelapseFramesPerSecond.map { "\($0) fps" } ?? "Off"
        case .exposureCompensation: return settings.exposureCompensation.description
        case .zebras: return onOff(settings.zebras)
        case .focusPeaking: return onOff(settings.focusPeaking)
        case .framingGrid: return onOff(settings.framingGrid)
        case .jpegQuality: return settings.jpegQuality.label
        case .geotag: return onOff(settings.geotag)
        case .geotagPrecision: return settings.geotagPrecision == .precise ? "Precise" : "Approximate"
        case .autoZoom: return onOff(settings.autoZoom)
        case .autoZoomFraming: return settings.autoZoomFraming.rawValue.prefix(1).uppercased() + settings.autoZoomFraming.rawValue.dropFirst()
        case .remote: return onOff(settings.remote)
        case .forgetPhones: return "Forget all"
        case .usb: return settings.usb.label
        }
    }

    /// Steps the value `by` places (signed) in `model`. Exposure compensation, the bracket's
    /// step and the interval's times stop at their ends (`bumped`); the others go round.
    /// Returns whether anything changed.
    public func step(by steps: Int, in model: inout CameraModel) -> (changed: Bool, bumped: Bool) {
        guard steps != 0 else { return (false, false) }
        func cycle<T: Equatable>(_ values: [T], from current: T) -> T {
            let index = values.firstIndex(of: current) ?? 0
            return values[((index + steps) % values.count + values.count) % values.count]
        }
        /// Along an ordered list from the nearest stop to `current`, stopping at its ends.
        func along<T: Equatable>(_ values: [T], from current: T, nearest: (T) -> Int) -> T {
            let index = values.firstIndex(of: current)
                ?? values.indices.min { abs(nearest(values[$0])) < abs(nearest(values[$1])) }!
            let wanted = index + steps
            if !values.indices.contains(wanted) { bumped = true }
            return values[min(max(wanted, 0), values.count - 1)]
        }
        let before = model.settings
        var bumped = false
        let drive = model.settings.drive
        switch self {
        case .format:
            model.setFormat(cycle(model.availableFormats, from: model.settings.format))
        case .drive: model.update { $0.drive.mode = cycle(DriveMode.available, from: drive.mode) }
        case .selfTimer: model.update { $0.drive.selfTimer = cycle(SelfTimerDelay.allCases, from: drive.selfTimer) }
        case .bracketFrames: model.update { $0.drive.bracketFrames = cycle(BracketPlan.frameChoices, from: drive.bracketFrames) }
        case .bracketStep:
            let step = along(Array(BracketPlan.stepRange), from: drive.bracketStepThirds) { $0 - drive.bracketStepThirds }
            model.update { $0.drive.bracketStepThirds = step }
        case .interval:
            let seconds = along(DriveSettings.intervalStops, from: drive.intervalSeconds) { $0 - drive.intervalSeconds }
            model.update { $0.drive.intervalSeconds = seconds }
        case .intervalCount:
            // (Unlimited is the list's end, past the largest count.)
            let count = along(DriveSettings.countStops, from: drive.intervalCount) { ($0 ?? 10_000) - (drive.intervalCount ?? 10_000) }
            model.update { $0.drive.intervalCount = count }
        case .intervalDelay:
            let delay = along(DriveSettings.delayStops, from: drive.intervalDelaySeconds) { $0 - drive.intervalDelaySeconds }
            model.update { $0.drive.intervalDelaySeconds = delay }
        case .timelapse:
            model.update { $0.drive.timelapseFramesPerSecond = cycle(DriveSettings.timelapseRates, from: drive.timelapseFramesPerSecond) }
        case .exposureCompensation:
            let wanted = model.settings.exposureCompensation.thirds + steps
            bumped = !ExposureCompensation.range.contains(wanted)
            model.setExposureCompensation(ExposureCompensation(thirds: wanted))
        case .zebras: model.update { $0.zebras.toggle() }
        case .focusPeaking: model.update { $0.focusPeaking.toggle() }
        case .framingGrid: model.update { $0.framingGrid.toggle() }
        case .jpegQuality: model.update { $0.jpegQuality = cycle(JPEGQuality.allCases, from: $0.jpegQuality) }
        case .geotag: model.setGeotag(!model.settings.geotag)
        case .geotagPrecision:
            model.update { $0.geotagPrecision = cycle(GeotagPrecision.allCases, from: $0.geotagPrecision) }
        case .autoZoom: model.update { $0.autoZoom.toggle() }
        case .autoZoomFraming:
            model.update { $0.autoZoomFraming = cycle(AutoFraming.Size.allCases, from: $0.autoZoomFraming) }
        case .remote: model.update { $0.remote.toggle() }
        case .usb: model.update { $0.usb = cycle(USBMode.allCases, from: $0.usb) }
        // (An action, not a setting: the menu's control asks the remote to forget.)
        case .forgetPhones: break
        }
        // (An on/off switch flips once however many steps: a flick is one change.)
        return (model.settings != before, bumped)
    }
}
