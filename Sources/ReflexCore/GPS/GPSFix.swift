/// Where the camera was, from a GPS receiver's 2D or 3D fix (gpsd's TPV report), with how
/// sure the receiver was. Coordinates are WGS 84 degrees, north and east positive.
public struct GPSFix: Sendable, Equatable {
    public enum Mode: Int, Sendable {
        case twoD = 2, threeD = 3
    }

    public var latitude: Double
    public var longitude: Double
    /// Metres above mean sea level; nil in 2D (a 2D fix's altitude is a guess).
    public var altitude: Double?
    public var mode: Mode
    /// The fix's own time (UTC), where the receiver gave one.
    public var time: UTCTime?
    /// The horizontal position's estimated error, metres (gpsd's eph, about 95 %).
    public var horizontalError: Double?
    /// Horizontal dilution of precision, from the receiver's satellite report.
    public var dilution: Double?

    public init(latitude: Double, longitude: Double, altitude: Double? = nil, mode: Mode, time: UTCTime? = nil,
                horizontalError: Double? = nil, dilution: Double? = nil) {
        (self.latitude, self.longitude, self.altitude, self.mode) = (latitude, longitude, altitude, mode)
        (self.time, self.horizontalError, self.dilution) = (time, horizontalError, dilution)
    }

    /// Coordinates a photo may carry: finite, on the globe, and not exactly 0° 0° (what some
    /// receivers send with a fix flag set but no position).
    public var isPlausible: Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
            && !(latitude == 0 && longitude == 0) && (altitude?.isFinite ?? true)
    }
}
