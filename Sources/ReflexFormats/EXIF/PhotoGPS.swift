import ReflexCore

/// The GPS IFD both files carry, made from the fix a photo was given (already at the chosen
/// precision): position, altitude, the fix's own UTC time, 2D or 3D, and how sure it was. A
/// photo without a fix has no GPS IFD at all.
enum PhotoGPS {
    /// Seconds of arc are written to a ten-thousandth (3 mm): finer than any receiver.
    static let secondsDenominator: Int64 = 10_000

    /// The GPS IFD's fields, in ascending tag order.
    static func directory(_ fix: GPSFix) -> [ExifField] {
        var fields = [
            ExifField(0x0000, .bytes([2, 3, 0, 0])),  // GPSVersionID 2.3
            ExifField(0x0001, .text(fix.latitude < 0 ? "S" : "N")),  // GPSLatitudeRef
            ExifField(0x0002, .rationals(degreesMinutesSeconds(abs(fix.latitude)))),  // GPSLatitude
            ExifField(0x0003, .text(fix.longitude < 0 ? "W" : "E")),  // GPSLongitudeRef
            ExifField(0x0004, .rationals(degreesMinutesSeconds(abs(fix.longitude)))),  // GPSLongitude
        ]
        if let altitude = fix.altitude {
            fields.append(ExifField(0x0005, .bytes([altitude < 0 ? 1 : 0])))  // GPSAltitudeRef: below sea level
            fields.append(ExifField(0x0006, .rational(ExifFraction(abs(altitude), signed: false))))  // GPSAltitude
        }
        if let time = fix.time {
            fields.append(ExifField(0x0007, .rationals(timeOfDay(time))))  // GPSTimeStamp (UTC)
        }
        fields.append(ExifField(0x000A, .text(fix.mode == .threeD ? "3" : "2")))  // GPSMeasureMode
        if let dilution = fix.dilution, dilution.isFinite, dilution > 0 {
            fields.append(ExifField(0x000B, .rational(ExifFraction(dilution, signed: false))))  // GPSDOP
        }
        if let time = fix.time {
            fields.append(ExifField(0x001D, .text(dateStamp(time))))  // GPSDateStamp
        }
        if let error = fix.horizontalError, error.isFinite, error >= 0 {
            fields.append(ExifField(0x001F, .rational(ExifFraction(error, signed: false))))  // GPSHPositioningError
        }
        return fields
    }

    /// Degrees and minutes whole, seconds to `secondsDenominator` (carried up when they round to 60).
    static func degreesMinutesSeconds(_ value: Double) -> [ExifFraction] {
        let totalTicks = Int64((value * 3600 * Double(secondsDenominator)).rounded())
        let ticksPerMinute = 60 * secondsDenominator, ticksPerDegree = 60 * ticksPerMinute
        let degrees = totalTicks / ticksPerDegree
        let minutes = totalTicks % ticksPerDegree / ticksPerMinute
        let seconds = totalTicks % ticksPerMinute
        return [ExifFraction(numerator: degrees, denominator: 1), ExifFraction(numerator: minutes, denominator: 1),
                ExifFraction(numerator: seconds, denominator: secondsDenominator)]
    }

    /// Hours, minutes, seconds (to the millisecond) of the fix's time.
    static func timeOfDay(_ time: UTCTime) -> [ExifFraction] {
        [ExifFraction(numerator: Int64(time.hour), denominator: 1), ExifFraction(numerator: Int64(time.minute), denominator: 1),
         ExifFraction(numerator: Int64((time.second * 1000).rounded()), denominator: 1000)]
    }

    /// "YYYY:MM:DD".
    static func dateStamp(_ time: UTCTime) -> String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let year = String(time.year)
        return String(repeating: "0", count: max(0, 4 - year.count)) + year + ":" + two(time.month) + ":" + two(time.day)
    }
}
