/// A calendar date and time of day from seconds since 1970 (proleptic Gregorian, no time
/// zone: the caller adds its offset first), for dates written as text (PTP's object dates).
public struct CivilDate: Sendable, Equatable {
    public var year: Int, month: Int, day: Int
    public var hour: Int, minute: Int, second: Int

    public init(secondsSince1970 seconds: Int64) {
        let days = Int(seconds.floorDivided(by: 86_400))
        let inDay = Int(seconds - Int64(days) * 86_400)
        (hour, minute, second) = (inDay / 3600, inDay % 3600 / 60, inDay % 60)
        // Days since 1970-01-01 to a date, by 400-year eras of 146,097 days starting in March
        // (so that February, with its leap day, ends each year).
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }
}

private extension Int64 {
    func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
