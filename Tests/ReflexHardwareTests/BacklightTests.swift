import Foundation
import ReflexHardware
import ReflexTestSupport
import Testing

/// The panel's backlight, against a folder laid out as the backlight class lays out
/// /sys/class/backlight/NAME.
@Suite struct BacklightTests {
    static func panel(maximum: Int, now: Int, in folder: TemporaryFolder, name: String = "11-0045") throws {
        try FileManager.default.createDirectory(atPath: folder.file(name), withIntermediateDirectories: true)
        folder.write("\(maximum)\n", to: name + "/max_brightness")
        folder.write("\(now)\n", to: name + "/brightness")
    }

    @Test func itDimsToATenthAndGivesBackTheBrightnessItFound() throws {
        let folder = TemporaryFolder()
        try Self.panel(maximum: 255, now: 180, in: folder)
        let backlight = try #require(Backlight(name: "*", folder: folder.path, log: { _ in }))
        func brightness() -> String { (try? String(contentsOfFile: folder.file("11-0045/brightness"), encoding: .utf8)) ?? "" }
        #expect(backlight.name == "11-0045")
        backlight.dim(true)
        #expect(brightness().hasPrefix("26\n"), "a tenth of 255")
        backlight.dim(true)
        backlight.dim(false)
        #expect(brightness().hasPrefix("180\n"), "the brightness it had, not the most")
    }

    @Test func aDarkOrTinyBacklightStillDimsToOneStep() throws {
        let folder = TemporaryFolder()
        try Self.panel(maximum: 7, now: 7, in: folder)
        let backlight = try #require(Backlight(name: "11-0045", folder: folder.path, log: { _ in }))
        backlight.dim(true)
        #expect((try? String(contentsOfFile: folder.file("11-0045/brightness"), encoding: .utf8))?.hasPrefix("1\n") == true)
    }

    @Test func noBacklightIsSaidAndGivesNone() {
        let folder = TemporaryFolder()
        var said: [String] = []
        #expect(Backlight(name: "*", folder: folder.path, log: { said.append($0) }) == nil)
        #expect(Backlight(name: "missing", folder: folder.path, log: { said.append($0) }) == nil)
        #expect(said.count == 2 && said.allSatisfy { $0.contains("not dimmed") })
    }
}
