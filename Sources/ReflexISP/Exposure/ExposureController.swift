import ReflexCore

/// Everything Reflex decides about exposure and colour, frame by frame, as pure logic: the
/// Pro values pinned, Auto exposure and Auto white balance working the rest from each
/// metered frame's statistics, and the control history that says which exposure each frame
/// really had (a sensor applies a new one a few frames late). The sensor thread feeds it
/// settings and statistics and sends what it returns to the sensor; `sent` tells it what
/// the sensor made of that (controls round to their steps).
public struct ExposureController: Sendable {
    /// Frames between two meterings: AE and AWB need fresh statistics, not every frame's.
    public static let meteringInterval = 4

    /// What a settings change asks of the sensor.
    public struct Change: Sendable {
        /// An exposure to send now (a pinned Pro value, or a long exposure brought back).
        public var exposure: ExposureSetting?
        /// Why, for the log ("manual shutter 1/4").
        public var exposureNote: String?
        /// The lens and the camera's own white balance need setting again.
        public var lensChanged = false
        /// For the log: a white balance fixed by hand, and its gains.
        public var whiteBalanceNote: String?
    }

    public let sensor: SensorExposureModel
    public let color: ColourCalibration
    /// The camera's black and white levels when Reflex meters its frames (raw); nil for a
    /// camera that exposes its own finished pictures (YUYV, Motion-JPEG).
    public let levels: (black: Int, white: Int)?
    public let previewMatrix: Matrix3
    public private(set) var settings = CameraSettings()
    public private(set) var manual = ManualExposure(settings: CameraSettings())
    /// The newest exposure sent to the sensor.
    public private(set) var requested: ExposureSetting
    private var autoExposure: AutoExposure
    /// Enhanced RAW in Auto: how far the sensor is underexposed to keep the highlights.
    private var headroom = HighlightHeadroom()
    /// The headroom moved and no exposure split by it has been asked for yet.
    private var headroomMoved = false
    private var autoWhiteBalance = AutoWhiteBalance()
    private var fixedWhiteBalance: (kelvin: Int, gains: SIMD3<Double>)?
    private var history: ExposureHistory
    private var hasSettings = false
    /// The newest metered luma (linear, 0…1 of white), for the log.
    public private(set) var lastLuma = 0.0
    /// The shutter's half press holds Auto exposure and Auto white balance where they are.
    public var locked = false

    /// `current`: what the sensor is set to as streaming starts.
    public init(sensor: SensorExposureModel, color: ColourCalibration, levels: (black: Int, white: Int)?,
                current: ExposureSetting, delayFrames: Int) {
        self.sensor = sensor
        self.color = color
        self.levels = levels
        previewMatrix = color.previewMatrix  // once: it is matrix arithmetic on arrays
        requested = current
        autoExposure = AutoExposure(limits: sensor.limits)
        history = ExposureHistory(initial: current, delayFrames: delayFrames)
    }

    /// Reflex meters this camera's frames (it sends raw ones).
    public var meters: Bool { levels != nil }

    /// New settings, from the frame after `sequence` on (nil: before the first frame).
    /// Only what changed is redone: picking a dial or a format leaves AE's state alone.
    public mutating func apply(_ new: CameraSettings, afterFrame sequence: UInt32?) -> Change {
        var change = Change()
        let previous = settings
        let first = !hasSettings
        settings = new
        hasSettings = true
        if first || ManualExposure(settings: new) != manual || new.exposureCompensation != previous.exposureCompensation {
            let (exposure, shortened) = pinManualValues()
            change.exposure = exposure
            if exposure != nil {
                let pinned = [manual.shutter.map { "shutter \($0)" }, manual.iso.map { "ISO \($0)" }].compactMap { $0 }
                change.exposureNote = (pinned.isEmpty ? "auto shutter" : "manual " + pinned.joined(separator: ", "))
                    + (shortened ? ", the exposure back within the preview's frame" : "")
            } else if !first, let sequence {
                autoExposure.applied(requested)
                history.sent(requested, after: sequence)
            }
        }
        if first || new.mode != previous.mode || new.whiteBalance != previous.whiteBalance {
            fixedWhiteBalance = new.mode == .pro ? new.whiteBalance.kelvin.map { ($0, color.gains(kelvin: $0)) } : nil
            if let fixedWhiteBalance {
                change.whiteBalanceNote = "manual white balance \(new.whiteBalance) → gains "
                    + ExposureController.gainsText(fixedWhiteBalance.gains) + " (\(fixedWhiteBalance.kelvin) K)"
            }
        }
        change.lensChanged = first || new.mode != previous.mode || new.whiteBalance != previous.whiteBalance
            || new.focus != previous.focus
        return change
    }

    /// Pins the Pro values; Auto exposure starts again within what is left. Returns the
    /// exposure to send now, if one must be, and whether it is a long one brought back.
    private mutating func pinManualValues() -> (ExposureSetting?, shortened: Bool) {
        manual = ManualExposure(settings: settings)
        var (setting, limits) = manual.pin(requested, sensor: sensor)
        // A long exposure left from a shutter set by hand (or from before this stream) goes
        // back to the preview's frame time at once, as bright as gain can make it (with the
        // ISO pinned, darker): Auto alone would keep it while the scene looks right, and the
        // preview would crawl.
        var shortened = false
        if manual.shutter == nil, setting.exposure > limits.previewExposureLimit * 1.001,
           setting.exposure > limits.exposure.lowerBound {
            setting = AutoExposure(limits: limits).allocate(product: setting.product)
            shortened = true
        }
        autoExposure = AutoExposure(limits: limits)
        autoExposure.compensation = settings.exposureCompensation
        return (manual.shutter != nil || manual.iso != nil || shortened ? setting : nil, shortened)
    }

    /// The sensor refused a pinned value (a webcam whose own auto exposure holds its
    /// exposure control, say): Auto keeps the sensor's full range, so the same saved settings
    /// do not end every restart.
    public mutating func manualRefused() {
        manual = ManualExposure(settings: CameraSettings())
        autoExposure = AutoExposure(limits: sensor.limits)
        autoExposure.compensation = settings.exposureCompensation
    }

    /// The sensor was set to `applied` after frame `sequence` (nil: before streaming).
    public mutating func sent(_ applied: ExposureSetting, afterFrame sequence: UInt32?) {
        requested = applied
        autoExposure.applied(applied)
        if let sequence {
            history.sent(applied, after: sequence)
        } else {
            history = ExposureHistory(initial: applied, delayFrames: history.delayFrames)
        }
    }

    /// Whether the `count`-th frame of a stream is metered.
    public func meters(frameCount count: Int) -> Bool { meters && count % ExposureController.meteringInterval == 0 }

    /// The exposure frame `sequence` was taken with.
    public func taken(forFrame sequence: UInt32) -> ExposureSetting { history.setting(forFrame: sequence) }

    /// The white balance in use: fixed by hand, or Auto's.
    public var whiteBalance: SIMD3<Double> { fixedWhiteBalance?.gains ?? autoWhiteBalance.gains }

    /// The ISP's parameters for frame `sequence` (its own digital gain); nil when not raw.
    public func parameters(forFrame sequence: UInt32) -> ISPParameters? {
        levels.map {
            ISPParameters(blackLevel: $0.black, whiteLevel: $0.white, whiteBalance: whiteBalance,
                          digitalGain: taken(forFrame: sequence).digitalGain, colorMatrix: previewMatrix)
        }
    }

    /// Meters frame `sequence` from its statistics (gathered with `parameters(forFrame:)`):
    /// Auto white balance follows it, and Auto exposure returns the next exposure to send,
    /// nil when the sensor should stay as it is.
    public mutating func meter(_ statistics: FrameStatistics, frame sequence: UInt32) -> ExposureSetting? {
        // Metered as taken: the frame's own exposure, not the newest asked for.
        let taken = taken(forFrame: sequence)
        if fixedWhiteBalance == nil && !locked {
            _ = autoWhiteBalance.update(meanRGB: statistics.meanRGB, clippedFraction: statistics.clippedFraction)
        }
        // Exposure follows the spot the photographer tapped, where there is one; white
        // balance stays the whole scene's.
        let metered = statistics.spotMeanRGB ?? statistics.meanRGB
        let clipped = statistics.spotSamples > 0 ? statistics.spotClippedFraction : statistics.clippedFraction
        lastLuma = meteredLuma(metered, whiteBalance: whiteBalance) * taken.digitalGain
        guard !manual.isFullyManual, !locked else { return nil }
        // Enhanced RAW in Auto keeps the whole frame's highlights (in Pro the photographer's
        // exposure holds); a change of it alone moves gain between the sensor and the ISP.
        let keepsHighlights = settings.format.merges && settings.mode == .auto
        if !keepsHighlights { headroom = HighlightHeadroom() }
        let stops = keepsHighlights
            ? headroom.update(clippedFraction: statistics.clippedFraction, nearClippingFraction: statistics.nearClippingFraction)
            : 0
        if stops != autoExposure.headroomStops { headroomMoved = true }
        autoExposure.headroomStops = stops
        var next = autoExposure.update(meanLuma: lastLuma, clippedFraction: clipped, frame: taken)
        if headroomMoved {
            // AE content: the same brightness, split anew. AE asking for a new one: split so
            // already. AE waiting for its last request: later.
            if next == taken {
                next = autoExposure.allocate(product: taken.product)
                headroomMoved = false
            } else if next != requested {
                headroomMoved = false
            }
        }
        return next != requested ? next : nil
    }

    /// The longest exposure a frame after `sequence` can still have: how long to wait for
    /// one before the stream has stalled.
    public func longestExposure(after sequence: UInt32?) -> Double { history.longestExposure(after: sequence) }

    /// The ISO in use (the newest exposure's gains).
    public var iso: Int { sensor.iso(of: requested) }

    /// The colour temperature in use: the one fixed by hand, or what Auto's gains stand for.
    public var kelvin: Int { fixedWhiteBalance?.kelvin ?? color.kelvin(forGains: autoWhiteBalance.gains) }

    /// White balance for the log: "WB tungsten", or "AWB about 5200 K".
    public var whiteBalanceDescription: String {
        fixedWhiteBalance != nil ? "WB \(settings.whiteBalance)" : "AWB about \(kelvin) K"
    }

    public static func gainsText(_ gains: SIMD3<Double>) -> String {
        [gains.x, gains.y, gains.z].map { String(Int(($0 * 100).rounded())) + "%" }.joined(separator: "/")
    }
}
