/// The camera model: settings plus the rules of the dials for one sensor. Pure: every
/// operation returns what changed; the caller persists and drives hardware.
public struct CameraModel: Sendable, Equatable {
    public private(set) var settings: CameraSettings
    public let limits: SensorLimits
    public let isoScale: ISOScale
    public let shutterScale: ShutterScale
    public let focusScale: FocusScale
    public let kelvinScale: KelvinScale

    /// Restored settings are fitted to this sensor: a manual value it cannot reach moves to
    /// the nearest stop it can; RAW on a sensor without Bayer output falls back to JPEG.
    public init(settings: CameraSettings, limits: SensorLimits, focusScale: FocusScale = FocusScale()) {
        self.limits = limits
        isoScale = ISOScale(sensorRange: limits.isoRange)
        shutterScale = ShutterScale(exposureRange: limits.exposureRange)
        self.focusScale = focusScale
        kelvinScale = KelvinScale()
        var fitted = settings
        if let iso = settings.iso.manualValue { fitted.iso = .manual(isoScale.nearest(to: iso)) }
        if let shutter = settings.shutter.manualValue {
            fitted.shutter = .manual(shutterScale.nearest(toSeconds: shutter.seconds))
        }
        if !limits.hasFocusControl { fitted.focus = .auto }
        if !limits.hasRawFormat && fitted.format.savesRaw { fitted.format = .jpeg }
        if limits.enhancedRawUnavailable != nil { fitted.format = fitted.format.withoutMerge }
        if fitted.mode == .auto {
            // Auto has no manual value (a spot tapped stays: it is Auto's).
            fitted.setMode(.auto)
            fitted.meteringPoint = settings.meteringPoint
        }
        self.settings = fitted
    }

    /// The formats this sensor can save (docs/camera.md, Photos: only the ones it can save are offered).
    public var availableFormats: [CaptureFormat] { limits.formats }

    /// The dials Pro mode offers; no focus motor, no focus dial.
    public var availableDials: [Dial] {
        Dial.allCases.filter(offers)
    }

    /// Whether Pro offers `dial`. (Asked on the realtime loop at each turn of a dial: unlike
    /// `availableDials`, it makes no array.)
    public func offers(_ dial: Dial) -> Bool { dial != .focus || limits.hasFocusControl }

    /// The offered dial `steps` along from `dial`, round them in `Dial`'s order. Makes no array.
    public func dial(_ steps: Int, along dial: Dial) -> Dial {
        var chosen = dial, remaining = steps
        while remaining != 0 {
            chosen = remaining > 0 ? chosen.next : chosen.previous
            if offers(chosen) { remaining += remaining > 0 ? -1 : 1 }
        }
        return chosen
    }

    /// Returns true when the settings changed (and should be saved).
    @discardableResult
    public mutating func setMode(_ mode: ShootingMode) -> Bool {
        let before = settings
        settings.setMode(mode)
        return settings != before
    }

    @discardableResult
    public mutating func select(_ dial: Dial) -> Bool {
        guard offers(dial), settings.selectedDial != dial else { return false }
        settings.selectedDial = dial
        return true
    }

    /// One step of a dial. Only Pro mode has dials: in Auto nothing happens.
    public mutating func turn(_ dial: Dial, _ direction: DialDirection, metered: MeteredValues) -> DialFeedback {
        guard settings.mode == .pro, offers(dial) else { return .none }
        switch dial {
        case .iso:
            let start = settings.iso.manualValue ?? isoScale.nearest(to: metered.iso)
            let result = isoScale.step(from: start, direction)
            settings.iso = .manual(result.value)
            return result.feedback
        case .shutter:
            let start = settings.shutter.manualValue ?? shutterScale.nearest(toSeconds: metered.exposureSeconds)
            let result = shutterScale.step(from: start, direction)
            settings.shutter = .manual(result.value)
            return result.feedback
        case .focus:
            let start = settings.focus.manualValue ?? metered.focus
            let result = focusScale.step(from: start, direction)
            settings.focus = .manual(result.value)
            return result.feedback
        case .whiteBalance:
            let start = settings.whiteBalance.kelvin.map(kelvinScale.nearest) ?? kelvinScale.nearest(to: metered.kelvin)
            let result = kelvinScale.step(from: start, direction)
            settings.whiteBalance = .kelvin(result.value)
            return result.feedback
        }
    }

    /// Several steps at once (a fast drag, a quick spin): how many ticks to play and
    /// whether a bound was hit.
    public mutating func turn(_ dial: Dial, steps: Int, metered: MeteredValues) -> (ticks: Int, bumped: Bool) {
        var ticks = 0
        var bumped = false
        for _ in 0..<steps.magnitude {
            switch turn(dial, steps > 0 ? .up : .down, metered: metered) {
            case .tick: ticks += 1
            case .bump: bumped = true
            case .none: break
            }
            if bumped { break }
        }
        return (ticks, bumped)
    }

    /// An ISO set outright (a tethered computer's), on this sensor's scale. Pro only.
    @discardableResult
    public mutating func setISO(_ iso: ManualValue<ISOSpeed>) -> Bool {
        guard settings.mode == .pro else { return false }
        let before = settings
        settings.iso = iso.manualValue.map { .manual(isoScale.nearest(to: $0)) } ?? .auto
        return settings != before
    }

    /// A shutter speed set outright, on this sensor's scale. Pro only.
    @discardableResult
    public mutating func setShutter(_ shutter: ManualValue<ShutterSpeed>) -> Bool {
        guard settings.mode == .pro else { return false }
        let before = settings
        settings.shutter = shutter.manualValue.map { .manual(shutterScale.nearest(toSeconds: $0.seconds)) } ?? .auto
        return settings != before
    }

    /// A tap on a white balance preset (Auto included). Pro only.
    @discardableResult
    public mutating func setWhiteBalance(_ whiteBalance: WhiteBalance) -> Bool {
        guard settings.mode == .pro, settings.whiteBalance != whiteBalance else { return false }
        settings.whiteBalance = whiteBalance
        return true
    }

    /// A double tap on a dial: that parameter back to automatic. Pro only.
    @discardableResult
    public mutating func resetToAuto(_ dial: Dial) -> Bool {
        let before = settings
        switch dial {
        case .iso: settings.iso = .auto
        case .shutter: settings.shutter = .auto
        case .focus: settings.focus = .auto
        case .whiteBalance: settings.whiteBalance = .auto
        }
        return settings != before
    }

    @discardableResult
    public mutating func setFormat(_ format: CaptureFormat) -> Bool {
        guard availableFormats.contains(format), settings.format != format else { return false }
        settings.format = format
        return true
    }

    /// Photo or Video: what the shutter button does.
    public mutating func setCapture(_ kind: CaptureKind) -> Bool {
        guard settings.capture != kind else { return false }
        settings.capture = kind
        return true
    }

    /// Meters Auto exposure on a spot (nil: the whole frame). Only Auto meters a tapped spot.
    @discardableResult
    public mutating func setMeteringPoint(_ point: MeteringPoint?) -> Bool {
        guard settings.mode == .auto || point == nil, settings.meteringPoint != point else { return false }
        settings.meteringPoint = point
        return true
    }

    @discardableResult
    public mutating func setExposureCompensation(_ compensation: ExposureCompensation) -> Bool {
        guard settings.exposureCompensation != compensation else { return false }
        settings.exposureCompensation = compensation
        return true
    }

    /// Changes a setting that has no rule beyond its own values (the menu's switches).
    @discardableResult
    public mutating func update(_ change: (inout CameraSettings) -> Void) -> Bool {
        let before = settings
        change(&settings)
        return settings != before
    }

    @discardableResult
    public mutating func setGeotag(_ on: Bool) -> Bool {
        guard settings.geotag != on else { return false }
        settings.geotag = on
        return true
    }
}
