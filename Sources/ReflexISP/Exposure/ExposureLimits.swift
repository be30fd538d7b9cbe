/// What the sensor and the preview allow AE to use.
public struct ExposureLimits: Sendable, Equatable {
    public var exposure: ClosedRange<Double>
    public var analogGain: ClosedRange<Double>
    /// Digital gain on top, for scenes darker than the sensor reaches.
    public var maximumDigitalGain: Double
    /// The longest exposure Auto uses for a live preview (a frame time), even if the
    /// sensor allows longer: the viewfinder must keep moving.
    public var previewExposureLimit: Double

    public init(exposure: ClosedRange<Double>, analogGain: ClosedRange<Double>,
                maximumDigitalGain: Double = 4, previewExposureLimit: Double = 1.0 / 30) {
        self.exposure = exposure
        self.analogGain = analogGain
        self.maximumDigitalGain = maximumDigitalGain
        self.previewExposureLimit = previewExposureLimit
    }
}
