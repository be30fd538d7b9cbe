import ReflexCore

/// What a board says about its sensor that V4L2 does not: how gain maps to ISO and how the
/// raw data is to be read. From `Board/<board>/sensor.conf`; every key is optional.
///
///     gain-control = gain      # the V4L2 control that is the analogue gain (its name, lower case)
///     gain-unity = 16          # that control's value at gain 1×
///     gain-law = 1024/(1024-code)
///                              # a gain register that is not linear: gain = K / (K − value)
///                              # (Sony's IMX219 256, IMX477 and IMX708 1024); gain-unity is then unused
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
///     still-size = 4056x3040   # the sensor's full-resolution mode, for photos
///     stills = switch          # with still-size: "stream" streams it all the time (the preview
///                              # scaled from it, zero lag), "switch" changes mode for each photo
///     still-skip-frames = 0    # frames a switch drops before its photo (a sensor whose first
///                              # frame in a new mode is not yet right)
///     color-matrix = 0.64 -0.12 -0.05 -0.38 1.15 0.26 -0.07 0.15 0.58
///                              # XYZ → camera, row-major, as a DNG ColorMatrix (D65)
///     color-matrix-a = …       # the same under Standard A (tungsten): the DNG's second pair
///     forward-matrix = …       # white-balanced camera → XYZ D50 (DNG ForwardMatrix), D65
///     forward-matrix-a = …     # and under Standard A
///     noise-profile = 2.5e-4 5.6e-7
///                              # noise variance = S × signal + O at gain 1× (signal 0…1);
///                              # S grows with the gain, O with its square (DNG NoiseProfile)
///     embedded-exposure-register = 0x0202
///     embedded-gain-register = 0x0204
///                              # where the sensor's embedded data (its per-frame register dump)
///                              # holds the exposure in lines and the gain code: CCS's addresses,
///                              # the defaults (IMX477, IMX708); `0x0157/8` for an 8-bit register
///     make = Reflex            # the photos' EXIF Make, Model and LensModel
///     model = Reflex One
///     lens-model = 4.4mm f/2.8
///     focal-length-35mm = 28   # the lens's 35 mm equivalent
public struct SensorCalibration: Sendable, Equatable {
    public var gainControl: String?
    public var gainUnity: Double?
    /// A gain register that is not linear through `gainUnity` (`gain-law`).
    public var gainLaw: GainLaw?
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
    /// The full-resolution mode for photos, where the board gives one, and how it is reached.
    public var stillWidth: Int?
    public var stillHeight: Int?
    public var stillsBy = StillSource.modeSwitch
    public var stillSkipFrames = 0
    /// The most the frames kept for photos (the zero-lag ring, a burst's, a still mode's) may
    /// take, where the board caps it (`frame-memory-mb`); they take at most a quarter of what
    /// the camera may use in any case.
    public var frameMemoryBytes: Int?
    /// Where photos come from: the preview stream unless a larger still mode is given.
    public var stillSource: StillSource {
        guard let stillWidth, let stillHeight, stillWidth * stillHeight > previewWidth * previewHeight else { return .preview }
        return stillsBy
    }
    /// The mode the sensor streams: the preview's, or the still's when photos come from the stream.
    public var streamWidth: Int { stillSource == .stream ? stillWidth! : previewWidth }
    public var streamHeight: Int { stillSource == .stream ? stillHeight! : previewHeight }
    /// XYZ → camera RGB under D65; nil: the sensor is taken to have sRGB primaries.
    public var colorMatrix: Matrix3?
    /// XYZ → camera RGB under Standard A (tungsten), where the board measured it.
    public var colorMatrixA: Matrix3?
    /// White-balanced camera RGB → XYZ D50, under D65 and under Standard A.
    public var forwardMatrix: Matrix3?
    public var forwardMatrixA: Matrix3?
    /// Noise variance = scale × signal + offset at gain 1× (signal 0…1); nil: a typical small
    /// sensor's is assumed (see `noise(atGain:)`).
    public var noiseProfile: NoiseProfile?
    /// The sensor's test pattern for bring-up (V4L2_CID_TEST_PATTERN): its menu item's name
    /// or number; nil leaves the sensor's own setting.
    public var testPattern: String?
    /// Where a frame's embedded data holds its exposure (lines) and gain code.
    public var embeddedExposureRegister = SensorRegister.ccsCoarseIntegrationTime
    public var embeddedGainRegister = SensorRegister.ccsAnalogueGain
    public var make = "Reflex"
    public var model = "Reflex camera"
    public var lensModel: String?
    public var focalLength35mm: Int?

    /// Kelvin ↔ white-balance gains and the preview's colour matrix, from `colorMatrix`.
    public var color: ColourCalibration {
        colorMatrix.map { ColourCalibration(cameraFromXYZ: $0) } ?? ColourCalibration()
    }

    public init() {}

    /// A typical small sensor at gain 1×: about 4000 electrons at white, 3 electrons of read
    /// noise (an estimate, for boards that give no noise-profile).
    static let typicalNoise = NoiseProfile(scale: 1.0 / 4000, offset: (3.0 / 4000) * (3.0 / 4000))

    /// The noise at an analogue gain (the board's, else a typical sensor's).
    public func noise(atGain gain: Double) -> NoiseProfile { (noiseProfile ?? SensorCalibration.typicalNoise).atGain(gain) }

    public typealias Problem = KeyValueText.ConfigurationProblem

    /// `ignoring`: keys another reader of the same file takes (a lens file's lens keys).
    public static func parse(_ text: String, ignoring: Set<String> = []) -> Result<SensorCalibration, Problem> {
        var calibration = SensorCalibration()
        let problem = KeyValueText.readConfiguration(text) { key, value in
            if ignoring.contains(key) { return .accepted }
            // Finite, non-negative and of a size a calibration can have.
            func number() -> Double? { Double(value).flatMap { $0 >= 0 && $0 < 1e9 ? $0 : nil } }
            func positive() -> Double? { number().flatMap { $0 > 0 ? $0 : nil } }
            switch key {
            case "gain-control": calibration.gainControl = value.lowercased()
            case "gain-unity":
                guard let n = positive() else { return .badValue }
                calibration.gainUnity = n
            case "gain-law":
                guard let law = GainLaw(parsing: value) else { return .badValue }
                calibration.gainLaw = law
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
            case "color-matrix", "color-matrix-a", "forward-matrix", "forward-matrix-a":
                let numbers = value.split(whereSeparator: { $0 == " " || $0 == "," }).compactMap { Double($0) }
                guard numbers.count == 9, numbers.allSatisfy({ $0.isFinite && abs($0) < 100 }),
                      Matrix3(numbers).inverse != nil else {
                    return .badValue
                }
                switch key {
                case "color-matrix": calibration.colorMatrix = Matrix3(numbers)
                case "color-matrix-a": calibration.colorMatrixA = Matrix3(numbers)
                case "forward-matrix": calibration.forwardMatrix = Matrix3(numbers)
                default: calibration.forwardMatrixA = Matrix3(numbers)
                }
            case "noise-profile":
                let numbers = value.split(separator: " ").compactMap { Double($0) }
                guard numbers.count == 2, numbers.allSatisfy({ $0.isFinite && $0 >= 0 && $0 < 1 }) else { return .badValue }
                calibration.noiseProfile = NoiseProfile(scale: numbers[0], offset: numbers[1])
            case "make", "model", "lens-model":
                guard !value.isEmpty, value.count <= 64, value.allSatisfy({ $0.isASCII && !$0.isNewline }) else {
                    return .badValue
                }
                switch key {
                case "make": calibration.make = value
                case "model": calibration.model = value
                default: calibration.lensModel = value
                }
            case "focal-length-35mm":
                guard let n = positive(), n < 10_000 else { return .badValue }
                calibration.focalLength35mm = Int(n.rounded())
            case "preview-size", "still-size":
                let sides = value.lowercased().split(separator: "x").compactMap { Int($0) }
                guard sides.count == 2, sides.allSatisfy({ (16...16384).contains($0) }) else { return .badValue }
                if key == "preview-size" {
                    (calibration.previewWidth, calibration.previewHeight) = (sides[0], sides[1])
                } else {
                    (calibration.stillWidth, calibration.stillHeight) = (sides[0], sides[1])
                }
            case "stills":
                guard let source = StillSource(rawValue: value.lowercased()), source != .preview else { return .badValue }
                calibration.stillsBy = source
            case "still-skip-frames":
                guard let n = number(), n <= 30 else { return .badValue }
                calibration.stillSkipFrames = Int(n)
            case "frame-memory-mb":
                guard let n = number(), n >= 16, n <= 65_536 else { return .badValue }
                calibration.frameMemoryBytes = Int(n) << 20
            case "preview-fps":
                guard let n = number(), n >= 1, n <= 1000 else { return .badValue }
                calibration.previewFramesPerSecond = Int(n)
            case "zoom-unity":
                guard let n = positive() else { return .badValue }
                calibration.zoomUnity = n
            case "line-time-us":
                guard let n = positive(), n < 1e5 else { return .badValue }
                calibration.lineTime = n / 1e6
            case "test-pattern":
                guard !value.isEmpty, value.count <= 64 else { return .badValue }
                calibration.testPattern = value
            case "embedded-exposure-register", "embedded-gain-register":
                guard let register = SensorRegister(parsing: value) else { return .badValue }
                if key == "embedded-exposure-register" {
                    calibration.embeddedExposureRegister = register
                } else {
                    calibration.embeddedGainRegister = register
                }
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
