/// The keys of the settings file and of `reflex settings set KEY VALUE`, with their values'
/// spelling. One table serves both, so the file and the command can never disagree.
public enum SettingsKey: String, Sendable, CaseIterable {
    case mode
    case capture
    case format
    case geotag
    case geotagPrecision = "geotag-precision"
    case geotagConsent = "geotag-consent"
    case iso
    case shutter
    case focus
    case whiteBalance = "white-balance"
    case dial
    case exposureCompensation = "exposure-compensation"
    case zebras
    case focusPeaking = "focus-peaking"
    case framingGrid = "framing-grid"
    case jpegQuality = "jpeg-quality"
    case autoZoom = "auto-zoom"
    case autoZoomFraming = "auto-zoom-framing"
    case drive
    case selfTimer = "self-timer"
    case bracketFrames = "bracket-frames"
    case bracketStep = "bracket-step"
    case interval
    case intervalCount = "interval-count"
    case intervalDelay = "interval-delay"
    case timelapse
    case remote
    case usb

    /// The values a key takes, for help and error messages.
    public var allowedValues: String {
        switch self {
        case .mode: "auto | pro"
        case .capture: "photo | video"
        case .format: "jpeg | raw | raw+jpeg | enhanced-raw | enhanced-raw+jpeg"
        case .geotag, .geotagConsent, .zebras, .focusPeaking, .framingGrid, .autoZoom, .remote: "on | off"
        case .autoZoomFraming: AutoFraming.Size.allCases.map(\.rawValue).joined(separator: " | ")
        case .jpegQuality: JPEGQuality.allCases.map(\.rawValue).joined(separator: " | ")
        case .geotagPrecision: "precise | approximate"
        case .iso: "auto | " + ISOSpeed.stopTable.map { String($0.value) }.joined(separator: " ")
        case .shutter: "auto | 1/8000 … 1/4 | 0.3\" 0.4\" 0.5\" 0.6\" 0.8\" 1\" (the seed's 1/3 stops)"
        case .focus: "auto | 0 … 1 (0 = closest, 1 = infinity, up to 3 decimals)"
        case .whiteBalance:
            "auto | " + WhiteBalancePreset.allCases.map(\.rawValue).joined(separator: " ")
                + " | 2000K … 10000K in 100 K steps"
        case .dial: Dial.allCases.map(\.rawValue).joined(separator: " | ")
        case .exposureCompensation: "-3 … +3 in thirds: 0 | +1/3 | -2/3 | +1 | +1 1/3 … (or a decimal: +0.7)"
        case .drive: DriveMode.available.map(\.rawValue).joined(separator: " | ")
        case .selfTimer: SelfTimerDelay.allCases.map(\.rawValue).joined(separator: " | ")
        case .bracketFrames: BracketPlan.frameChoices.map(String.init).joined(separator: " | ")
        case .bracketStep: "1/3 | 2/3 | 1 | 1 1/3 … 3 (EV between frames)"
        case .interval: "1s … 24h: 5s | 1m30s | 2h (or seconds)"
        case .intervalCount: "1 … 9999 | unlimited"
        case .intervalDelay: "0s … 24h before the first shot: 0s | 10s | 5m"
        case .timelapse: "off | 24 | 25 | 30 (frames a second of the movie made at an interval run's end)"
        case .usb: USBMode.allCases.map(\.rawValue).joined(separator: " | ")
        }
    }

    /// Whether the value only exists in Pro mode (Auto decides it otherwise).
    public var isManualParameter: Bool {
        switch self {
        case .iso, .shutter, .focus, .whiteBalance: true
        default: false
        }
    }
}

extension CameraSettings {
    /// The value of `key` as the file and the command spell it.
    public func value(of key: SettingsKey) -> String {
        switch key {
        case .mode: mode.rawValue
        case .capture: capture.rawValue
        case .format: format.rawValue
        case .geotag, .geotagConsent, .zebras, .focusPeaking, .framingGrid, .autoZoom, .remote:
            self[keyPath: Self.onOffSetting(key)!] ? "on" : "off"
        case .autoZoomFraming: autoZoomFraming.rawValue
        case .geotagPrecision: geotagPrecision.rawValue
        case .iso: iso.manualValue.map { String($0.value) } ?? "auto"
        case .shutter: shutter.manualValue?.description ?? "auto"
        case .focus: focus.manualValue?.description ?? "auto"
        case .whiteBalance: whiteBalance.settingValue
        case .dial: selectedDial.rawValue
        case .exposureCompensation: exposureCompensation.settingValue
        case .jpegQuality: jpegQuality.rawValue
        case .drive: drive.mode.rawValue
        case .selfTimer: drive.selfTimer.rawValue
        case .bracketFrames: String(drive.bracketFrames)
        case .bracketStep: DriveSettings.stepText(drive.bracketStepThirds)
        case .interval: DurationText.text(drive.intervalSeconds)
        case .intervalCount: drive.intervalCount.map(String.init) ?? "unlimited"
        case .intervalDelay: DurationText.text(drive.intervalDelaySeconds)
        case .timelapse: drive.timelapseFramesPerSecond.map(String.init) ?? "off"
        case .usb: usb.rawValue
        }
    }

    /// Sets one key from its text. Only the spelling is checked here; the rule that Auto has
    /// no manual parameter is `checkModeRule`'s, so a file may list keys in any order.
    public mutating func set(_ key: SettingsKey, from text: String) throws(SettingsValueError) {
        func refuse(_ why: String) -> SettingsValueError {
            SettingsValueError(key: key, value: text, reason: "\"\(text)\" is not valid: \(why); expected \(key.allowedValues)")
        }
        let word = text.lowercased()
        switch key {
        case .mode:
            guard let value = ShootingMode(rawValue: word) else { throw refuse("unknown mode") }
            setMode(value)
        case .capture:
            guard let value = CaptureKind(rawValue: word) else { throw refuse("neither photo nor video") }
            capture = value
        case .format:
            guard let value = CaptureFormat(rawValue: word) else { throw refuse("unknown format") }
            format = value
        case .geotag, .geotagConsent, .zebras, .focusPeaking, .framingGrid, .autoZoom, .remote:
            guard let on = Self.onOff(word) else { throw refuse("not on or off") }
            self[keyPath: Self.onOffSetting(key)!] = on
        case .geotagPrecision:
            guard let value = GeotagPrecision(rawValue: word) else { throw refuse("unknown precision") }
            geotagPrecision = value
        case .iso:
            if word == "auto" { iso = .auto; return }
            guard let number = Int(word), ISOSpeed.stopTable.contains(ISOSpeed(number)) else {
                throw refuse("not an ISO stop")
            }
            iso = .manual(ISOSpeed(number))
        case .shutter:
            if word == "auto" { shutter = .auto; return }
            guard let speed = ShutterSpeed(parsing: word), ShutterSpeed.stopTable.contains(speed) else {
                throw refuse("not a shutter stop")
            }
            shutter = .manual(speed)
        case .focus:
            if word == "auto" { focus = .auto; return }
            guard let position = FocusPosition(parsing: word) else { throw refuse("not a number from 0 to 1") }
            focus = .manual(position)
        case .whiteBalance:
            guard let value = WhiteBalance(parsing: word) else { throw refuse("not a preset or a Kelvin stop") }
            whiteBalance = value
        case .dial:
            guard let value = Dial(rawValue: word) else { throw refuse("unknown dial") }
            selectedDial = value
        case .exposureCompensation:
            guard let value = ExposureCompensation(parsing: word) else { throw refuse("not a third of a stop within ±3") }
            exposureCompensation = value
        case .jpegQuality:
            guard let value = JPEGQuality(rawValue: word) else { throw refuse("unknown quality") }
            jpegQuality = value
        case .autoZoomFraming:
            guard let value = AutoFraming.Size(rawValue: word) else { throw refuse("unknown framing") }
            autoZoomFraming = value
        case .drive:
            guard let value = DriveMode(rawValue: word) else { throw refuse("unknown drive mode") }
            guard DriveMode.available.contains(value) else { throw refuse("this camera does not shoot it yet") }
            drive.mode = value
        case .selfTimer:
            guard let value = SelfTimerDelay(rawValue: word) else { throw refuse("unknown delay") }
            drive.selfTimer = value
        case .bracketFrames:
            guard let frames = Int(word), BracketPlan.frameChoices.contains(frames) else { throw refuse("not 3, 5 or 7 frames") }
            drive.bracketFrames = frames
        case .bracketStep:
            guard let step = ExposureCompensation(parsing: word), BracketPlan.stepRange.contains(step.thirds) else {
                throw refuse("not a third of a stop from 1/3 to 3")
            }
            drive.bracketStepThirds = step.thirds
        case .interval:
            guard let seconds = DurationText.seconds(parsing: word), IntervalSchedule.intervals.contains(Double(seconds)) else {
                throw refuse("not a duration from 1s to 24h")
            }
            drive.intervalSeconds = seconds
        case .intervalCount:
            if word == "unlimited" { drive.intervalCount = nil; return }
            guard let count = Int(word), DriveSettings.countRange.contains(count) else { throw refuse("not a count from 1 to 9999") }
            drive.intervalCount = count
        case .intervalDelay:
            guard let seconds = DurationText.seconds(parsing: word), seconds <= 86_400 else {
                throw refuse("not a duration from 0s to 24h")
            }
            drive.intervalDelaySeconds = seconds
        case .timelapse:
            if word == "off" { drive.timelapseFramesPerSecond = nil; return }
            guard let rate = Int(word), DriveSettings.timelapseRates.contains(rate) else { throw refuse("not 24, 25 or 30") }
            drive.timelapseFramesPerSecond = rate
        case .usb:
            guard let value = USBMode(rawValue: word) else { throw refuse("unknown USB mode") }
            usb = value
        }
    }

    /// The switch a key sets, for the keys that are on or off.
    private static func onOffSetting(_ key: SettingsKey) -> WritableKeyPath<CameraSettings, Bool>? {
        switch key {
        case .geotag: \.geotag
        case .geotagConsent: \.geotagConsent
        case .zebras: \.zebras
        case .focusPeaking: \.focusPeaking
        case .framingGrid: \.framingGrid
        case .autoZoom: \.autoZoom
        case .remote: \.remote
        default: nil
        }
    }

    private static func onOff(_ word: String) -> Bool? {
        switch word {
        case "on", "true", "yes", "1": true
        case "off", "false", "no", "0": false
        default: nil
        }
    }

    /// Auto mode has no manual parameter. Returns the first key that breaks the rule.
    public func checkModeRule() -> SettingsKey? {
        guard mode == .auto else { return nil }
        return SettingsKey.allCases.first { key in
            key.isManualParameter && value(of: key) != "auto"
        }
    }
}
