/// When a photo was taken, in local time with its offset from UTC and milliseconds: the
/// pieces of EXIF's DateTimeOriginal, SubSecTimeOriginal and OffsetTimeOriginal.
public struct PhotoTime: Sendable, Equatable {
    public var year, month, day, hour, minute, second: Int
    public var millisecond: Int
    /// Local time minus UTC, minutes (e.g. 60 for CET).
    public var utcOffsetMinutes: Int

    public init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, millisecond: Int = 0,
                utcOffsetMinutes: Int = 0) {
        (self.year, self.month, self.day) = (year, month, day)
        (self.hour, self.minute, self.second) = (hour, minute, second)
        (self.millisecond, self.utcOffsetMinutes) = (millisecond, utcOffsetMinutes)
    }

    /// "YYYY:MM:DD HH:MM:SS", EXIF's date format.
    public var exifDateTime: String {
        "\(pad(year, 4)):\(pad(month, 2)):\(pad(day, 2)) \(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
    }

    /// "123": the milliseconds, three digits.
    public var exifSubSeconds: String { pad(millisecond, 3) }

    /// "+01:00".
    public var exifOffset: String {
        let magnitude = abs(utcOffsetMinutes)
        return (utcOffsetMinutes < 0 ? "-" : "+") + pad(magnitude / 60, 2) + ":" + pad(magnitude % 60, 2)
    }

    private func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
