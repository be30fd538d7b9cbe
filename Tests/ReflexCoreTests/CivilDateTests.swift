import ReflexCore
import Testing

/// Seconds since 1970 as a calendar's date and time (PTP's object dates), across leap days,
/// centuries and before 1970.
@Suite struct CivilDateTests {
    static func fields(_ seconds: Int64) -> [Int] {
        let date = CivilDate(secondsSince1970: seconds)
        return [date.year, date.month, date.day, date.hour, date.minute, date.second]
    }

    @Test func datesAcrossLeapDaysCenturiesAndTheEpoch() {
        #expect(Self.fields(0) == [1970, 1, 1, 0, 0, 0])
        #expect(Self.fields(951_782_400) == [2000, 2, 29, 0, 0, 0], "a century's leap day")
        #expect(Self.fields(1_795_943_107) == [2026, 11, 29, 9, 5, 7])
        #expect(Self.fields(4_107_542_399) == [2100, 2, 28, 23, 59, 59], "2100 has no 29 February")
        #expect(Self.fields(4_107_542_400) == [2100, 3, 1, 0, 0, 0])
        #expect(Self.fields(-1) == [1969, 12, 31, 23, 59, 59], "before 1970")
    }
}
