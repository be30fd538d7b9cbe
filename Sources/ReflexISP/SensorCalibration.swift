import ReflexCore

/// What a board says about its sensor that V4L2 does not: how gain maps to ISO and how the
/// raw data is to be read. From `Board/<board>/sensor.conf`; every key is optional.
///
///     gain-control = gain      # the V4L2 control that is the analogue gain (its name, lower case)
///     gain-unity = 16          # that control's value at gain 1×
///     base-iso = 100           # the ISO at gain 1×
///     black-level = 64         # in the sensor's sample units
///     f-number = 2.8
///     focal-length-mm = 4.4
///     control-delay-frames = 2 # frames between setting exposure/gain and seeing it
///     zoom-unity = 100         # the zoom control's value at 1× (default: its minimum, if above 0)
///     line-time-us = 18.9      # one line's time, for a sensor whose exposure control counts
///                              # lines (V4L2_CID_EXPOSURE) and that has no PIXEL_RATE/HBLANK
///     preview-size = 1920x1080 # the sensor mode to stream for the preview
///     preview-fps = 30         # its frame rate (the driver picks the nearest it has)
///     color-matrix = 0.64 -0.12 -0.05 -0.38 1.15 0.26 -0.07 0.15 0.58
///                              # XYZ → camera, row-major, as a DNG ColorMatrix (D65)
public struct SensorCalibration: Sendable, Equatable {
    public var gainControl: String?
    public var gainUnity: Double?
    public var baseISO: Double = 100
    public var blackLevel: Int?
    public var fNumber: Double?
    public var focalLengthMillimetres: Double?
    public var controlDelayFrames = 2
    /// Seconds a line, where the board says so (it overrides the driver's timing controls).
    public var lineTime: Double?
    /// The zoom control's value at 1×.
    public var zoomUnity: Double?
    /// The sensor mode the preview streams (the driver may adjust it).
    public var previewWidth = 1920
    public var previewHeight = 1080
    /// Nil: the driver's own rate.
    public var previewFramesPerSecond: Int?
    /// XYZ → camera RGB; nil: the sensor is taken to have sRGB primaries.
    public var colorMatrix: Matrix3?

    /// Kelvin ↔ white-balance gains and the preview's colour matrix, from `colorMatrix`.
    public var color: ColorCalibration {
        colorMatrix.map { ColorCalibration(cameraFromXYZ: $0) } ?? ColorCalibration()
    }

    public init() {}

    public typealias Problem = KeyValueText.ConfigurationProblem

    public static func parse(_ text: String) -> Result<SensorCalibration, Problem> {
        var calibration = SensorCalibration()
        let problem = KeyValueText.readConfiguration(text) { key, value in
            // Finite, non-negative and of a size a calibration can have.
            func number() -> Double? { Double(value).flatMap { $0 >= 0 && $0 < 1e9 ? $0 : nil } }
            func positive() -> Double? { number().flatMap { $0 > 0 ? $0 : nil } }
            switch key {
            case "gain-control": calibration.gainControl = value.lowercased()
            case "gain-unity":
                guard let n = positive() else { return .badValue }
                calibration.gainUnity = n
            case "base-iso":
                guard let n = positive() else { return .badValue }
                calibration.baseISO = n
            case "black-level":
                guard let n = number() else { return .badValue }
                calibration.blackLevel = Int(n)
            case "f-number":
                guard let n = positive() else { return .badValue }
                calibration.fNumber = n
            case "focal-length-mm":
                guard let n = positive() else { return .badValue }
                calibration.focalLengthMillimetres = n
            case "color-matrix":
                let numbers = value.split(whereSeparator: { $0 == " " || $0 == "," }).compactMap { Double($0) }
                guard numbers.count == 9, numbers.allSatisfy({ $0.isFinite && abs($0) < 100 }),
                      Matrix3(numbers).inverse != nil else {
                    return .badValue
                }
                calibration.colorMatrix = Matrix3(numbers)
            case "preview-size":
                let sides = value.lowercased().split(separator: "x").compactMap { Int($0) }
                guard sides.count == 2, sides.allSatisfy({ (16...16384).contains($0) }) else { return .badValue }
                (calibration.previewWidth, calibration.previewHeight) = (sides[0], sides[1])
            case "preview-fps":
                guard let n = number(), n >= 1, n <= 1000 else { return .badValue }
                calibration.previewFramesPerSecond = Int(n)
            case "zoom-unity":
                guard let n = positive() else { return .badValue }
                calibration.zoomUnity = n
            case "line-time-us":
                guard let n = positive(), n < 1e5 else { return .badValue }
                calibration.lineTime = n / 1e6
            case "control-delay-frames":
                guard let n = number() else { return .badValue }
                calibration.controlDelayFrames = Int(n)
            default: return .unknownKey
            }
            return .accepted
        }
        return problem.map { .failure($0) } ?? .success(calibration)
    }
}
