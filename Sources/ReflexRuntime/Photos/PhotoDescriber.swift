import ReflexCore
import ReflexFormats
import ReflexHardware
import ReflexISP

/// What a photo's files say about it, from the frame's own exposure and colour (not what
/// was asked for), the settings at the press and the board's calibration.
public struct PhotoDescriber: Sendable {
    public let calibration: SensorCalibration
    public let software: String
    /// The GPS fix that held at a moment (monotonic seconds), nil when there was none that
    /// fresh (the gpsd client's `fix(at:)`).
    public let location: @Sendable (Double) -> GPSFix?

    public init(calibration: SensorCalibration, software: String,
                location: @escaping @Sendable (Double) -> GPSFix? = { _ in nil }) {
        (self.calibration, self.software, self.location) = (calibration, software, location)
    }

    /// Where a photo pressed at `pressedAt` (monotonic seconds) was taken, at the precision
    /// chosen: only with geotag on at the press, and only from a fix that held at the press
    /// (none: no GPS tags at all). Asked as its frame is taken (ShutterQueue).
    public func place(_ settings: CameraSettings, pressedAt: Double) -> GPSFix? {
        guard settings.geotag, let fix = location(pressedAt) else { return nil }
        return settings.geotagPrecision.applied(to: fix)
    }

    public func photo(_ capture: TakenPhoto) -> PhotoDescription {
        let calibration = capture.calibration ?? self.calibration
        let settings = capture.settings
        let manual = settings.mode == .pro && (settings.iso != .auto || settings.shutter != .auto)
        // A bracket's frame says its offset on top of the compensation, as cameras write it.
        let bias = (manual ? 0 : Double(settings.exposureCompensation.thirds) / 3)
            + Double(capture.bracketOffsetThirds ?? 0) / 3
        var description = PhotoDescription(
            make: calibration.make, model: calibration.model, software: software, lensModel: calibration.lensModel,
            orientation: .upright, exposureSeconds: capture.frame.exposure.exposure, iso: capture.iso,
            fNumber: calibration.fNumber, focalLengthMillimetres: calibration.focalLengthMillimetres,
            focalLength35mm: calibration.focalLength35mm, exposureProgram: manual ? .manual : .normal,
            exposureBias: bias,
            // Auto exposure meters the whole frame's mean.
            meteringMode: .average, whiteBalanceManual: settings.whiteBalance != .auto, captured: capture.pressedAt,
            location: capture.location)
        description.bracketed = capture.bracketOffsetThirds != nil
        return description
    }

    /// The DNG's description of the raw data; `crop` is the framing on screen (the digital zoom).
    public func raw(_ capture: TakenPhoto, parameters: ISPParameters, crop: PixelRect?) -> RawDescription {
        let calibration = capture.calibration ?? self.calibration
        let black = Double(parameters.blackLevel)
        let gains = parameters.whiteBalance
        let valid = gains.x > 0 && gains.z > 0 && gains.x.isFinite && gains.z.isFinite
        return RawDescription(
            // (A model that names its make already is not prefixed twice.)
            uniqueCameraModel: calibration.model.hasPrefix(calibration.make) ? calibration.model
                : calibration.make + " " + calibration.model,
            blackLevels: [black, black, black, black], whiteLevel: parameters.whiteLevel,
            calibrations: PhotoDescriber.calibrations(of: calibration), asShotNeutral: valid ? SIMD3(1 / gains.x, 1, 1 / gains.z) : nil,
            // The viewfinder brightened the frame by its digital gain; an editor should too.
            baselineExposure: FastMath.log2(max(parameters.digitalGain, 1e-3)),
            noiseProfile: calibration.noise(atGain: capture.frame.exposure.analogGain),
            defaultCrop: crop)
    }

    /// The board's matrices with their illuminants; without any, the sensor is taken to have
    /// sRGB primaries (what the preview assumes), measured under D65.
    var calibrations: [ColourCalibrationSet] { PhotoDescriber.calibrations(of: calibration) }

    static func calibrations(of calibration: SensorCalibration) -> [ColourCalibrationSet] {
        var sets: [ColourCalibrationSet] = []
        if let a = calibration.colorMatrixA {
            sets.append(ColourCalibrationSet(illuminant: .standardA, colorMatrix: a, forwardMatrix: calibration.forwardMatrixA))
        }
        sets.append(ColourCalibrationSet(illuminant: .d65, colorMatrix: calibration.colorMatrix ?? .sRGBFromXYZ,
                                        forwardMatrix: calibration.forwardMatrix))
        return sets
    }
}
