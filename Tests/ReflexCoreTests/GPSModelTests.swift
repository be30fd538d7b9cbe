import Testing
@testable import ReflexCore

/// gpsd's reports read, the fix a press finds, and approximate precision.
@Suite("GPS model")
struct GPSModelTests {
    static let tpv = #"{"class":"TPV","device":"/dev/pts/1","mode":3,"time":"2034-08-16T03:07:19.000Z","ept":0.005,"lat":-37.784788333,"lon":175.314896667,"altHAE":83.6000,"altMSL":59.9000,"alt":59.9000,"epv":34.500,"eph":20.900}"#

    @Test func aTPVWithAFixIsReadWhole() {
        let message = GPSDMessage.parse(Self.tpv)
        let expected = GPSFix(latitude: -37.784788333, longitude: 175.314896667, altitude: 59.9, mode: .threeD,
                              time: UTCTime(year: 2034, month: 8, day: 16, hour: 3, minute: 7, second: 19),
                              horizontalError: 20.9)
        #expect(message == .position(expected))
    }

    @Test func reportsWithoutAFixHoldNone() {
        #expect(GPSDMessage.parse(#"{"class":"TPV","mode":1,"time":"2019-04-06T00:00:00.000Z"}"#) == .position(nil))
        #expect(GPSDMessage.parse(#"{"class":"TPV","mode":0}"#) == .position(nil))
        // A fix flag with no position, or one off the globe, or at exactly 0° 0°.
        #expect(GPSDMessage.parse(#"{"class":"TPV","mode":2}"#) == .position(nil))
        #expect(GPSDMessage.parse(#"{"class":"TPV","mode":3,"lat":91.0,"lon":10}"#) == .position(nil))
        #expect(GPSDMessage.parse(#"{"class":"TPV","mode":3,"lat":0,"lon":0}"#) == .position(nil))
        // A 2D fix has no altitude even where the report has a number for it.
        let twoD = GPSDMessage.parse(#"{"class":"TPV","mode":2,"lat":1.5,"lon":2.5,"alt":99}"#)
        #expect(twoD == .position(GPSFix(latitude: 1.5, longitude: 2.5, mode: .twoD)))
    }

    @Test func devicesSkyAndOthers() {
        #expect(GPSDMessage.parse(#"{"class":"DEVICES","devices":[]}"#) == .devices(count: 0))
        #expect(GPSDMessage.parse(#"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/ttyS1"}]}"#) == .devices(count: 1))
        #expect(GPSDMessage.parse(#"{"class":"DEVICE","path":"/dev/ttyS1","activated":"2026-11-24T22:11:48.982Z"}"#)
                == .device(active: true))
        #expect(GPSDMessage.parse(#"{"class":"DEVICE","path":"/dev/ttyS1","activated":0}"#) == .device(active: false))
        #expect(GPSDMessage.parse(#"{"class":"SKY","hdop":1.10,"satellites":[{"PRN":17,"used":true}]}"#) == .sky(dilution: 1.1))
        #expect(GPSDMessage.parse(#"{"class":"VERSION","release":"3.22","proto_major":3}"#) == .other)
        #expect(GPSDMessage.parse(#"{"class":"ERROR","message":"Unrecognized request"}"#) == .error("Unrecognized request"))
    }

    @Test func malformedLinesAreNothing() {
        for line in [#"{"class":"TPV","mode":3,"lat":-37.78"#, "", "$GPGGA,1,2,3", #"{"class":TPV}"#, #"{"mode":3}"#,
                     #"{"class":"TPV","lat":1e999,"lon":2,"mode":3}"#, String(repeating: "[", count: 100)] {
            #expect(GPSDMessage.parse(line) == nil || GPSDMessage.parse(line) == .position(nil), "\(line)")
        }
    }

    @Test func jsonReadsEscapesNumbersAndNesting() {
        #expect(JSONValue.parse(#" {"a":[1,-2.5e1,true,false,null],"b":"x\"\u00e9\n"} "#)
                == .object(["a": .array([.number(1), .number(-25), .bool(true), .bool(false), .null]),
                            "b": .string("x\"é\n")]))
        #expect(JSONValue.parse("{} x") == nil && JSONValue.parse("[1,]") == nil && JSONValue.parse("-") == nil)
        #expect(JSONValue.parse("\"tab\tinside\"") == nil)  // a raw tab inside a string
    }

    @Test func timesAreCheckedAsDates() {
        #expect(UTCTime(iso8601: "2024-02-29T23:59:60.500Z") == UTCTime(year: 2024, month: 2, day: 29, hour: 23, minute: 59, second: 60.5))
        #expect(UTCTime(iso8601: "2023-02-29T00:00:00.000Z") == nil)
        #expect(UTCTime(iso8601: "2023-13-01T00:00:00.000Z") == nil && UTCTime(iso8601: "garbage") == nil)
    }

    @Test func aPressFindsTheFixThatHeldThenAndNoOlder() {
        var history = GPSFixHistory()
        let here = GPSFix(latitude: 10, longitude: 20, mode: .threeD)
        let there = GPSFix(latitude: 11, longitude: 21, mode: .threeD)
        #expect(history.fix(at: 100) == nil)
        history.record(here, at: 100)
        history.record(there, at: 101)
        #expect(history.fix(at: 100.5) == here)
        #expect(history.fix(at: 101) == there)
        #expect(history.fix(at: 99) == nil)
        // Too old to say where the camera is now.
        #expect(history.fix(at: 101 + GPSFixHistory.maximumAge + 0.1) == nil)
        // Lost: a report without a fix ends it.
        history.record(nil, at: 102)
        #expect(history.fix(at: 102.5) == nil && history.fix(at: 101.5) == there)
        // Many reports later the ring still answers for the newest.
        for second in 0..<100 { history.record(here, at: 200 + Double(second)) }
        #expect(history.fix(at: 299.5) == here)
    }

    @Test func approximateRoundsToAHundredthOfADegree() {
        let fix = GPSFix(latitude: -37.784788333, longitude: 175.314896667, altitude: 59.9, mode: .threeD,
                         horizontalError: 20.9, dilution: 1.1)
        let rough = GeotagPrecision.approximate.applied(to: fix)
        #expect(abs(rough.latitude - -37.78) < 1e-9 && abs(rough.longitude - 175.31) < 1e-9)
        #expect(rough.altitude == 100 && rough.horizontalError == 1000 && rough.dilution == nil)
        // Never more than about 0.8 km from the truth.
        let metresPerDegree = 111_320.0
        let north = (rough.latitude - fix.latitude) * metresPerDegree
        let east = (rough.longitude - fix.longitude) * metresPerDegree * cosine(fix.latitude)
        #expect((north * north + east * east).squareRoot() < 800)
        #expect(GeotagPrecision.precise.applied(to: fix) == fix)
    }

    /// cos of degrees without Foundation (a short series is plenty for a bound).
    private func cosine(_ degrees: Double) -> Double {
        let x = degrees * .pi / 180
        var term = 1.0, sum = 1.0
        for n in 1..<12 {
            term *= -x * x / Double((2 * n - 1) * (2 * n))
            sum += term
        }
        return sum
    }
}

@Suite("gpsd's address")
struct GPSDAddressTests {
    @Test func theBoardsFileAndTheEnvironmentSayWhereGpsdIs() throws {
        #expect(GPSDAddress() == GPSDAddress(host: "127.0.0.1", port: 2947), "gpsd's own port, on the loopback by number")
        let board = try GPSDAddress.parse("# the board's gpsd\nhost = gps.local\nport = 3000\n").get()
        #expect(board == GPSDAddress(host: "gps.local", port: 3000))
        #expect(board.overridden(host: nil, port: "29471") == GPSDAddress(host: "gps.local", port: 29471))
        #expect(board.overridden(host: "::1", port: nil).description == "[::1]:3000")
        #expect(board.overridden(host: "", port: "0") == board, "an empty host or port 0 is ignored")
        if case .success = GPSDAddress.parse("port = 70000\n") { Issue.record("a port above 65535 is refused") }
        if case .success = GPSDAddress.parse("baud = 9600\n") { Issue.record("an unknown key is refused") }
    }
}
