/// How exact the saved coordinates are (docs/camera.md, Geotagging: precise or approximate).
///
/// Approximate rounds latitude and longitude to 0.01° — 1.1 km north–south, 1.1 km × cos
/// latitude east–west, so at most about 0.8 km from where the photo was taken — rounds the
/// altitude to 100 m, states a horizontal error of at least 1 km, and leaves out the
/// dilution of precision (which would describe the real fix). The time is kept.
public enum GeotagPrecision: String, Sendable, CaseIterable {
    case precise, approximate

    /// Degrees latitude and longitude are rounded to in `approximate`.
    public static let approximateDegrees = 0.01
    public static let approximateAltitudeMetres = 100.0
    public static let approximateErrorMetres = 1000.0

    /// `fix` as a photo may carry it at this precision.
    public func applied(to fix: GPSFix) -> GPSFix {
        guard self == .approximate else { return fix }
        var rounded = fix
        func round(_ value: Double, to step: Double) -> Double { (value / step).rounded() * step }
        rounded.latitude = round(fix.latitude, to: Self.approximateDegrees)
        rounded.longitude = round(fix.longitude, to: Self.approximateDegrees)
        rounded.altitude = fix.altitude.map { round($0, to: Self.approximateAltitudeMetres) }
        rounded.horizontalError = max(fix.horizontalError ?? 0, Self.approximateErrorMetres)
        rounded.dilution = nil
        return rounded
    }
}
