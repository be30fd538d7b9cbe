/// A moment in UTC as a GPS fix states it ("2024-05-01T12:34:56.000Z"): GPSDateStamp and
/// GPSTimeStamp are written from it unchanged, never through the camera's own clock.
public struct UTCTime: Sendable, Equatable {
    public var year: Int, month: Int, day: Int
    public var hour: Int, minute: Int
    public var second: Double

    public init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Double) {
        (self.year, self.month, self.day) = (year, month, day)
        (self.hour, self.minute, self.second) = (hour, minute, second)
    }

    /// An ISO 8601 UTC time as gpsd writes it; nil for anything else or an impossible date.
    public init?(iso8601 text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.last == UInt8(ascii: "Z"), bytes[4] == UInt8(ascii: "-"),
              bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
              bytes[16] == UInt8(ascii: ":") else { return nil }
        func integer(_ range: Range<Int>) -> Int? {
            guard bytes[range].allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
            return Int(String(decoding: bytes[range], as: UTF8.self))
        }
        guard let year = integer(0..<4), let month = integer(5..<7), let day = integer(8..<10),
              let hour = integer(11..<13), let minute = integer(14..<16),
              let second = Double(String(decoding: bytes[17..<(bytes.count - 1)], as: UTF8.self)),
              (1...12).contains(month), (1...UTCTime.days(inMonth: month, year: year)).contains(day),
              (0..<24).contains(hour), (0..<60).contains(minute), second >= 0, second < 61 else { return nil }
        self.init(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    static func days(inMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
