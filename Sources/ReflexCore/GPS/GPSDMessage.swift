/// One report from gpsd's JSON protocol (one line), reduced to what the camera uses.
/// https://gpsd.gitlab.io/gpsd/gpsd_json.html
public enum GPSDMessage: Sendable, Equatable {
    /// The receivers gpsd has (its answer to ?WATCH, and on ?DEVICES).
    case devices(count: Int)
    /// A receiver appeared (active) or went away.
    case device(active: Bool)
    /// A time-position-velocity report: the fix, nil when it holds none (mode 0 or 1, or
    /// coordinates no photo should carry).
    case position(GPSFix?)
    /// A satellite report: its horizontal dilution of precision.
    case sky(dilution: Double?)
    /// gpsd refused a command.
    case error(String)
    /// Anything else (VERSION, WATCH, PPS…).
    case other

    /// The report in `line`; nil when the line is not a gpsd report.
    public static func parse(_ line: String) -> GPSDMessage? {
        guard let report = JSONValue.parse(line), let kind = report["class"]?.string else { return nil }
        switch kind {
        case "DEVICES": return .devices(count: report["devices"]?.array?.count ?? 0)
        case "DEVICE":
            // gpsd marks a receiver it closed with "activated":0; an open one has its time there.
            return .device(active: report["activated"]?.number != 0)
        case "TPV": return .position(fix(in: report))
        case "SKY": return .sky(dilution: report["hdop"]?.number)
        case "ERROR": return .error(report["message"]?.string ?? "")
        default: return .other
        }
    }

    private static func fix(in report: JSONValue) -> GPSFix? {
        guard let modeNumber = report["mode"]?.number, let whole = Int(exactly: modeNumber), let mode = GPSFix.Mode(rawValue: whole),
              let latitude = report["lat"]?.number, let longitude = report["lon"]?.number else { return nil }
        // Above mean sea level: "altMSL" since gpsd 3.20, "alt" before.
        let altitude = mode == .threeD ? (report["altMSL"] ?? report["alt"])?.number : nil
        let fix = GPSFix(latitude: latitude, longitude: longitude, altitude: altitude, mode: mode,
                         time: report["time"]?.string.flatMap(UTCTime.init(iso8601:)),
                         horizontalError: report["eph"]?.number)
        return fix.isPlausible ? fix : nil
    }
}
