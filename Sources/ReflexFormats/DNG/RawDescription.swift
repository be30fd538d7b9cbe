import ReflexCore
import ReflexISP

/// What a DNG says about its raw data beyond the photo's EXIF: the colour filter, levels,
/// the calibration's matrices, the white balance used and the noise.
public struct RawDescription: Sendable, Equatable {
    /// A name that stays the same for every unit of this camera (DNG UniqueCameraModel).
    public var uniqueCameraModel: String
    /// The black level of each sample of the 2×2 CFA tile, row by row (DNG BlackLevel with
    /// BlackLevelRepeatDim 2×2), in the sensor's sample units. The tile is the frame's own, at
    /// its top-left corner, like `RawFormat.cfa`; the DNG writer moves both to the active area's
    /// corner (where DNG's patterns start) when that is on an odd row or column.
    public var blackLevels: [Double]
    public var whiteLevel: Int
    /// One or two calibrations (the illuminants differ); never a matrix without its illuminant.
    public var calibrations: [ColourCalibrationSet]
    /// The white balance really used, as the camera-space neutral (DNG AsShotNeutral: the
    /// inverse of the gains, green 1); nil where it is not known (then it is left out).
    public var asShotNeutral: SIMD3<Double>?
    /// Stops an editor should brighten by to match the camera's own rendering.
    public var baselineExposure: Double
    /// Noise variance = scale × signal + offset, signal 0…1 (DNG NoiseProfile, one pair for
    /// every plane); nil where unknown.
    public var noiseProfile: NoiseProfile?
    /// The pixels that see light, where the sensor has margins (DNG ActiveArea); nil: all.
    public var activeArea: PixelRect?
    /// The part of the active area to show (DNG DefaultCropOrigin/Size, relative to it); nil: all.
    public var defaultCrop: PixelRect?
    /// Enhanced RAW: how many frames were merged into the raw (said in IFD0's XMP, `MergeXMP`);
    /// nil: one frame, as taken.
    public var framesMerged: Int?

    public init(uniqueCameraModel: String, blackLevels: [Double], whiteLevel: Int, calibrations: [ColourCalibrationSet],
                asShotNeutral: SIMD3<Double>?, baselineExposure: Double = 0,
                noiseProfile: NoiseProfile? = nil, activeArea: PixelRect? = nil,
                defaultCrop: PixelRect? = nil) {
        precondition(blackLevels.count == 4, "one black level for each sample of the 2×2 tile")
        precondition(!calibrations.isEmpty && calibrations.count <= 2, "one or two calibrations")
        self.uniqueCameraModel = uniqueCameraModel
        (self.blackLevels, self.whiteLevel, self.calibrations) = (blackLevels, whiteLevel, calibrations)
        (self.asShotNeutral, self.baselineExposure, self.noiseProfile) = (asShotNeutral, baselineExposure, noiseProfile)
        (self.activeArea, self.defaultCrop) = (activeArea, defaultCrop)
    }
}

/// A colour matrix with the illuminant it was measured under (DNG ColorMatrixN with
/// CalibrationIlluminantN, and ForwardMatrixN where known).
public struct ColourCalibrationSet: Sendable, Equatable {
    /// EXIF LightSource codes the DNG calibration uses.
    public enum Illuminant: UInt16, Sendable {
        case standardA = 17
        case d65 = 21
    }

    public var illuminant: Illuminant
    /// XYZ → camera (DNG ColorMatrix).
    public var colorMatrix: Matrix3
    /// White-balanced camera → XYZ D50 (DNG ForwardMatrix), where the board gives one.
    public var forwardMatrix: Matrix3?

    public init(illuminant: Illuminant, colorMatrix: Matrix3, forwardMatrix: Matrix3? = nil) {
        (self.illuminant, self.colorMatrix, self.forwardMatrix) = (illuminant, colorMatrix, forwardMatrix)
    }
}
