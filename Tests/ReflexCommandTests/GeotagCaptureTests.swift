import Foundation
import ReflexTestSupport
import Testing

/// Geotagged photos end to end: `reflex capture` on the simulated sensor, its gpsd a real
/// one (gpsfake replaying a receiver's log, reached through GPSD_PORT), the files read back
/// with exiftool.
@Suite("Geotagged photos", .serialized, .tags(.externalTool))
struct GeotagCaptureTests {
    /// The GPS tags exiftool reads in `file`, as numbers where they are numbers.
    static func gpsTags(_ file: String) throws -> [String: Any] {
        let run = try ProgramRun(executable: URL(fileURLWithPath: "/usr/bin/exiftool"), ["-n", "-j", "-gps:all", file])
        let list = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [[String: Any]]
        var tags = list?.first ?? [:]
        tags["SourceFile"] = nil
        return tags
    }

    /// A state folder with these settings, and a photo pair taken with gpsd on `port`.
    static func shoot(settings: [(String, String)], port: UInt16) throws -> (files: [String], errors: String, state: StateFolder) {
        let state = StateFolder()
        for (key, value) in settings {
            let set = try ReflexRun(["settings", "set", key, value, "--state-dir", state.path])
            #expect(set.status == 0, "\(set.errors)")
        }
        let run = try ReflexRun(["capture", "--sensor", "sim", "--state-dir", state.path, "-o", state.path + "/card",
                                 "--format", "raw+jpeg"], environment: ["GPSD_PORT": "\(port)"])
        #expect(run.status == 0, "\(run.errors)")
        let files = run.output.split(separator: "\n").map(String.init)
        #expect(files.count == 2, "\(run.output)")
        return (files, run.errors, state)
    }

    static func signed(_ tags: [String: Any], _ name: String, negative: String) -> Double? {
        guard let value = tags["GPS" + name] as? Double else { return nil }
        return tags["GPS\(name)Ref"] as? String == negative ? -value : value
    }

    @Test func aFixIsInBothFilesAsTheLogSaysIt() throws {
        let gpsd = try GPSFake(log: "bu353s4.log", port: 29_501)
        defer { gpsd.stop() }
        #expect(gpsd.waitForFix(), "the receiver has a fix before the shot")
        let shot = try Self.shoot(settings: [("geotag", "on")], port: gpsd.port)
        let positions = try GPSFake.positions(in: "bu353s4.log")
        for file in shot.files {
            let tags = try Self.gpsTags(file)
            let latitude = try #require(Self.signed(tags, "Latitude", negative: "S"), "\(file): \(tags)")
            let longitude = try #require(Self.signed(tags, "Longitude", negative: "W"), "\(file): \(tags)")
            // Degrees, minutes and ten-thousandths of a second: 3e-8° carried.
            #expect(positions.contains { abs($0.latitude - latitude) < 1e-7 && abs($0.longitude - longitude) < 1e-7 },
                    "\(file): \(latitude), \(longitude) is a position of the log")
            #expect(tags["GPSVersionID"] as? String == "2 3 0 0", "\(tags)")
            #expect((tags["GPSDateStamp"] as? String)?.firstMatch(of: /^\d{4}:\d\d:\d\d$/) != nil, "\(tags)")
            #expect(tags["GPSTimeStamp"] != nil)
            let mode = "\(tags["GPSMeasureMode"] ?? "")"
            #expect(mode == "2" || mode == "3", "\(tags)")
            if mode == "3" { #expect(tags["GPSAltitude"] != nil && tags["GPSAltitudeRef"] != nil, "\(tags)") }
            #expect(tags["GPSHPositioningError"] != nil || tags["GPSDOP"] != nil, "\(tags)")
        }
    }

    /// The running camera: its gpsd client (started with the remembered geotag) gives the
    /// shot its place, and its log says what it does.
    @Test func theRunningCameraTagsItsShots() throws {
        let gpsd = try GPSFake(log: "bu353s4.log", port: 29_506)
        defer { gpsd.stop() }
        let state = StateFolder()
        let set = try ReflexRun(["settings", "set", "geotag", "on", "--state-dir", state.path])
        #expect(set.status == 0, "\(set.errors)")
        let camera = try ScreenCommandTests.RunningCamera(["--sensor", "sim"], environment: ["GPSD_PORT": "\(gpsd.port)"],
                                                          state: state)
        defer { _ = camera.stop() }
        #expect(camera.waitForFrame { _ in true } != nil, "the camera shows a frame")
        let socket = state.path + "/capture.sock"
        let deadline = Date().addingTimeInterval(300)  // (a safety net on a busy machine)
        while !FileManager.default.fileExists(atPath: socket) && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        // A fix comes a second or so after gpsd is asked (later on a busy machine): shots
        // until one carries it, or 20 s.
        var tags: [String: Any] = [:]
        var file = ""
        for _ in 0..<10 where tags.isEmpty {
            Thread.sleep(forTimeInterval: 2)
            let run = try ReflexRun(["capture", "--state-dir", state.path, "--format", "jpeg"])
            #expect(run.status == 0, "\(run.errors)")
            file = run.output.trimmingCharacters(in: .whitespacesAndNewlines)
            tags = try Self.gpsTags(file)
        }
        let latitude = try #require(Self.signed(tags, "Latitude", negative: "S"), "\(file): \(tags)")
        let longitude = try #require(Self.signed(tags, "Longitude", negative: "W"), "\(file): \(tags)")
        #expect(try GPSFake.positions(in: "bu353s4.log").contains {
            abs($0.latitude - latitude) < 1e-7 && abs($0.longitude - longitude) < 1e-7
        })
        let log = camera.stop()
        #expect(log.contains("gps: gpsd at 127.0.0.1:\(gpsd.port); geotag on"), "\(log)")
        #expect(log.contains("gps: connected to gpsd at 127.0.0.1:\(gpsd.port)"), "\(log)")
    }

    @Test func approximateRoundsToAHundredthOfADegree() throws {
        let gpsd = try GPSFake(log: "bu353s4.log", port: 29_502)
        defer { gpsd.stop() }
        #expect(gpsd.waitForFix(), "the receiver has a fix before the shot")
        let shot = try Self.shoot(settings: [("geotag", "on"), ("geotag-precision", "approximate")], port: gpsd.port)
        let positions = try GPSFake.positions(in: "bu353s4.log")
        for file in shot.files {
            let tags = try Self.gpsTags(file)
            let latitude = try #require(Self.signed(tags, "Latitude", negative: "S"), "\(file): \(tags)")
            let longitude = try #require(Self.signed(tags, "Longitude", negative: "W"), "\(file): \(tags)")
            #expect(abs(latitude * 100 - (latitude * 100).rounded()) < 1e-6, "\(latitude) is on the 0.01° grid")
            #expect(abs(longitude * 100 - (longitude * 100).rounded()) < 1e-6, "\(longitude) is on the 0.01° grid")
            #expect(positions.contains { abs($0.latitude - latitude) <= 0.005 + 1e-9 && abs($0.longitude - longitude) <= 0.005 + 1e-9 })
            if let altitude = tags["GPSAltitude"] as? Double {
                #expect(altitude.truncatingRemainder(dividingBy: 100) == 0, "altitude to 100 m: \(altitude)")
            }
            #expect(tags["GPSDOP"] == nil, "no dilution: it would say how precise the position really was")
            #expect((tags["GPSHPositioningError"] as? Double ?? 1000) >= 1000)
        }
    }

    @Test func geotagOffWritesNoLocationAnywhere() throws {
        let gpsd = try GPSFake(log: "bu353s4.log", port: 29_503)
        defer { gpsd.stop() }
        let shot = try Self.shoot(settings: [], port: gpsd.port)
        for file in shot.files {
            let run = try ProgramRun(executable: URL(fileURLWithPath: "/usr/bin/exiftool"), ["-gps:all", "-a", file])
            #expect(run.output.isEmpty, "\(file): \(run.output)")
            let everything = try ProgramRun(executable: URL(fileURLWithPath: "/usr/bin/exiftool"), ["-a", "-G1", "-s", file])
            #expect(!everything.output.contains("GPS"), "\(file): no GPS anywhere")
        }
    }

    @Test func noFixGivesNoTagsAndSaysSo() throws {
        let gpsd = try GPSFake(log: "ublox-lea-5q.log", port: 29_504)
        defer { gpsd.stop() }
        let shot = try Self.shoot(settings: [("geotag", "on")], port: gpsd.port)
        for file in shot.files { #expect(try Self.gpsTags(file).isEmpty, "\(file)") }
        #expect(shot.errors.contains("no GPS fix yet; the photo carries no location"), "\(shot.errors)")
    }

    @Test func withoutGpsdThePhotoIsTakenWithoutALocation() throws {
        let shot = try Self.shoot(settings: [("geotag", "on")], port: 29_505)  // nothing listens there
        for file in shot.files { #expect(try Self.gpsTags(file).isEmpty, "\(file)") }
        #expect(shot.errors.contains("GPS service not running; the photo carries no location"), "\(shot.errors)")
    }
}
