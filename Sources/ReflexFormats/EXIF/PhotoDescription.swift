import ReflexCore

/// What a photo file says about how it was taken: the EXIF both the DNG and the JPEG carry.
/// Filled by the camera from the frame's own exposure (not the one asked for), the board and
/// the clock; the writers only translate it into tags.
public struct PhotoDescription: Sendable, Equatable {
    public var make: String
    public var model: String
    /// "Reflex <version>".
    public var software: String
    /// The lens's name where the board gives one (e.g. "4.4mm f/2.8").
    public var lensModel: String?
    public var orientation: PhotoOrientation
    /// The exposure the frame really had.
    public var exposureSeconds: Double
    public var iso: Int
    public var fNumber: Double?
    public var focalLengthMillimetres: Double?
    /// The 35 mm equivalent focal length, where the board knows the sensor's size.
    public var focalLength35mm: Int?
    /// Pro with a manual shutter or ISO is manual; Auto is the normal program.
    public var exposureProgram: ExposureProgram
    /// Exposure compensation in stops.
    public var exposureBias: Double
    public var meteringMode: MeteringMode
    /// A preset or Kelvin chosen on the white-balance dial (false: Auto).
    public var whiteBalanceManual: Bool
    public var captured: PhotoTime
    /// Where it was taken, at the precision chosen; nil: no GPS tags at all (geotag off, or
    /// no current fix at the press).
    public var location: GPSFix?
    /// One frame of an exposure bracket (EXIF ExposureMode "auto bracket"; its offset is in
    /// `exposureBias`).
    public var bracketed = false

    public init(make: String, model: String, software: String, lensModel: String? = nil,
                orientation: PhotoOrientation = .upright, exposureSeconds: Double, iso: Int, fNumber: Double? = nil,
                focalLengthMillimetres: Double? = nil, focalLength35mm: Int? = nil,
                exposureProgram: ExposureProgram = .normal, exposureBias: Double = 0,
                meteringMode: MeteringMode = .centerWeighted, whiteBalanceManual: Bool = false, captured: PhotoTime,
                location: GPSFix? = nil) {
        (self.make, self.model, self.software, self.lensModel) = (make, model, software, lensModel)
        self.orientation = orientation
        (self.exposureSeconds, self.iso, self.fNumber) = (exposureSeconds, iso, fNumber)
        (self.focalLengthMillimetres, self.focalLength35mm) = (focalLengthMillimetres, focalLength35mm)
        (self.exposureProgram, self.exposureBias, self.meteringMode) = (exposureProgram, exposureBias, meteringMode)
        self.whiteBalanceManual = whiteBalanceManual
        self.captured = captured
        self.location = location
    }

    /// EXIF ExposureProgram.
    public enum ExposureProgram: UInt16, Sendable {
        case manual = 1
        case normal = 2
    }

    /// EXIF MeteringMode.
    public enum MeteringMode: UInt16, Sendable {
        case average = 1
        case centerWeighted = 2
        case spot = 3
    }
}
