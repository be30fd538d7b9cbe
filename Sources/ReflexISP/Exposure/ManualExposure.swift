import ReflexCore

/// The exposure values Pro mode fixes: none in Auto.
public struct ManualExposure: Sendable, Equatable {
    public let shutter: ShutterSpeed?
    public let iso: Int?

    public init(settings: CameraSettings) {
        shutter = settings.mode == .pro ? settings.shutter.manualValue : nil
        iso = settings.mode == .pro ? settings.iso.manualValue?.value : nil
    }

    public var isFullyManual: Bool { shutter != nil && iso != nil }

    /// Pro values pin what they set; Auto exposure works what is left (shutter priority with
    /// a manual shutter, ISO priority with a manual ISO, nothing with both). Returns the
    /// setting with the pinned values in it and what Auto may still use.
    public func pin(_ setting: ExposureSetting, sensor: SensorExposureModel) -> (ExposureSetting, ExposureLimits) {
        var setting = setting
        var limits = sensor.limits
        if let shutter {
            setting.exposure = min(max(shutter.seconds, limits.exposure.lowerBound), limits.exposure.upperBound)
            limits.exposure = setting.exposure...setting.exposure
            limits.previewExposureLimit = setting.exposure
        }
        if let iso {
            let pinned = sensor.setting(forISO: iso, exposure: setting.exposure)
            setting.analogGain = pinned.analogGain
            setting.digitalGain = pinned.digitalGain
            limits.analogGain = pinned.analogGain...pinned.analogGain
            limits.maximumDigitalGain = pinned.digitalGain
        }
        return (setting, limits)
    }
}
