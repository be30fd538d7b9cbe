/// The standard device properties a host sets (ISO 15740 §13) mapped onto the camera's own
/// settings, with their real ranges: what a computer's tethering program shows, and what
/// a value it sets asks of the camera. Values outside the standard's own are documented in
/// docs/tethering.md (Auto ISO 0xFFFF as PTP 1.1 has it; Auto shutter 0; Cloudy and Shade).
public enum PTPPropertyMap {
    static let autoISO: Int64 = 0xFFFF
    static let autoShutter: Int64 = 0
    /// ExposureProgramMode's Manual and Automatic (program).
    static let manualProgram: Int64 = 1, automaticProgram: Int64 = 2
    /// WhiteBalance's standard values and the camera's two of its own.
    static let whiteBalanceValues: [(WhiteBalance, Int64)] = [
        (.auto, 2), (.preset(.sunny), 4), (.preset(.fluorescent), 5), (.preset(.tungsten), 6),
        (.preset(.cloudy), 0x8001), (.preset(.shade), 0x8002),
    ]
    static let manualWhiteBalance: Int64 = 1
    /// StillCaptureMode's Normal, Burst and Timelapse, and the camera's two of its own.
    static let driveValues: [(DriveMode, Int64)] = [(.single, 1), (.burst, 2), (.interval, 3), (.selfTimer, 0x8001), (.bracketing, 0x8002)]

    /// The properties this camera has: the lens's f-number and the battery only where known.
    public static func supported(fNumber: Double?, batteryPercent: Int?) -> [PTPDeviceProperty] {
        PTPDeviceProperty.allCases.filter { property in
            switch property {
            case .fNumber: fNumber != nil
            case .batteryLevel: batteryPercent != nil
            case .dateTime: false
            default: true
            }
        }
    }

    /// `property` as the camera's settings are now, the dials' stops those of the sensor's
    /// `limits` (nil: every stop of their tables); nil for one the camera does not have.
    public static func describe(_ property: PTPDeviceProperty, settings: CameraSettings, fNumber: Double?,
                                batteryPercent: Int?, limits: SensorLimits? = nil) -> PTPPropertyDescription? {
        func enumeration(_ type: PTPPropertyDescription.DataType, _ values: [Int64], current: Int64, default initial: Int64,
                         settable: Bool = true) -> PTPPropertyDescription {
            PTPPropertyDescription(property: property, type: type, settable: settable, factoryDefault: initial, current: current,
                                   form: .enumeration(values))
        }
        // (The dials' values are Pro's: in Auto the camera chooses them, as a body's mode dial
        // greys them out on P.)
        let pro = settings.mode == .pro
        switch property {
        case .exposureIndex:
            let current = settings.iso.manualValue.map { Int64($0.value) } ?? autoISO
            let stops = limits.map { ISOScale(sensorRange: $0.isoRange).stops } ?? ISOSpeed.stopTable
            return enumeration(.uint16, [autoISO] + stops.map { Int64($0.value) }, current: current, default: autoISO, settable: pro)
        case .exposureTime:
            let current = settings.shutter.manualValue.map(tenthsOfMilliseconds) ?? autoShutter
            let stops = limits.map { ShutterScale(exposureRange: $0.exposureRange).stopsFastestFirst } ?? ShutterSpeed.stopTable
            return enumeration(.uint32, [autoShutter] + exposureTimes(stops), current: current, default: autoShutter,
                               settable: pro)
        case .whiteBalance:
            let current = whiteBalanceValues.first { $0.0 == settings.whiteBalance }?.1 ?? manualWhiteBalance
            let values = whiteBalanceValues.map(\.1) + (current == manualWhiteBalance ? [manualWhiteBalance] : [])
            return enumeration(.uint16, values, current: current, default: 2, settable: pro)
        case .exposureBiasCompensation:
            return enumeration(.int16, ExposureCompensation.range.map(thousandthsOfStop),
                               current: thousandthsOfStop(settings.exposureCompensation.thirds), default: 0)
        case .fNumber:
            guard let fNumber else { return nil }
            let current = Int64((fNumber * 100).rounded())
            return enumeration(.uint16, [current], current: current, default: current, settable: false)
        case .exposureProgramMode:
            return enumeration(.uint16, [manualProgram, automaticProgram],
                               current: settings.mode == .pro ? manualProgram : automaticProgram, default: automaticProgram)
        case .stillCaptureMode:
            let current = driveValues.first { $0.0 == settings.drive.mode }?.1 ?? 1
            return enumeration(.uint16, driveValues.map(\.1), current: current, default: 1)
        case .compressionSetting:
            // (Each format keeps its own value; a sensor without RAW offers JPEG's alone.)
            func value(_ format: CaptureFormat) -> Int64 { Int64(CaptureFormat.allCases.firstIndex(of: format) ?? 0) }
            let formats = limits?.formats ?? CaptureFormat.allCases
            return enumeration(.uint8, formats.map(value), current: value(settings.format), default: 0)
        case .batteryLevel:
            guard let batteryPercent else { return nil }
            return PTPPropertyDescription(property: property, type: .uint8, settable: false, factoryDefault: 100,
                                          current: Int64(batteryPercent), form: .range(minimum: 0, maximum: 100, step: 1))
        case .dateTime:
            return nil
        }
    }

    /// The change a host's `value` for `property` asks (one `describe` allows); nil when it
    /// asks nothing the camera can do.
    public static func change(_ property: PTPDeviceProperty, value: Int64, settings: CameraSettings) -> PTPSettingChange? {
        switch property {
        case .exposureIndex:
            return value == autoISO ? .iso(.auto) : ISOSpeed.stopTable.first { Int64($0.value) == value }.map { .iso(.manual($0)) }
        case .exposureTime:
            if value == autoShutter { return .shutter(.auto) }
            // Two stops can share a value in tenths of a millisecond: the exact one first.
            let matching = ShutterSpeed.stopTable.filter { tenthsOfMilliseconds($0) == value }
            let exact = matching.first { $0.seconds * 10_000 == Double(value) }
            return (exact ?? matching.first).map { .shutter(.manual($0)) }
        case .whiteBalance:
            if value == manualWhiteBalance, case .kelvin = settings.whiteBalance { return .whiteBalance(settings.whiteBalance) }
            return whiteBalanceValues.first { $0.1 == value }.map { .whiteBalance($0.0) }
        case .exposureBiasCompensation:
            return ExposureCompensation.range.first { thousandthsOfStop($0) == value }
                .map { .exposureCompensation(ExposureCompensation(thirds: $0)) }
        case .exposureProgramMode:
            return value == manualProgram ? .mode(.pro) : value == automaticProgram ? .mode(.auto) : nil
        case .stillCaptureMode:
            return driveValues.first { $0.1 == value }.map { .drive($0.0) }
        case .compressionSetting:
            return CaptureFormat.allCases.indices.contains(Int(value)) ? .format(CaptureFormat.allCases[Int(value)]) : nil
        case .fNumber, .batteryLevel, .dateTime:
            return nil
        }
    }

    /// ExposureTime's unit: 0.1 ms.
    static func tenthsOfMilliseconds(_ speed: ShutterSpeed) -> Int64 { Int64((speed.seconds * 10_000).rounded()) }

    /// Shutter stops as ExposureTime values, each once (1/6400 and 1/5000 are both 2).
    static func exposureTimes(_ stops: [ShutterSpeed]) -> [Int64] {
        var seen = Set<Int64>()
        return stops.map(tenthsOfMilliseconds).filter { seen.insert($0).inserted }.sorted()
    }

    /// ExposureBiasCompensation's unit: 0.001 stop.
    static func thousandthsOfStop(_ thirds: Int) -> Int64 { Int64((Double(thirds) * 1000 / 3).rounded()) }
}
