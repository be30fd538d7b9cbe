import Foundation
import ReflexHardware
import ReflexTestSupport
import Testing

/// The status LED's writes, against a folder laid out as the LED class lays out
/// /sys/class/leds/NAME (a real LED class device, a uinput device's LED that the kernel's
/// input-leds makes, is the QEMU board's: see its drive scenario).
@Suite struct StatusLightTests {
    @Test func itWritesFullBrightnessAndZeroOnlyWhenTheStateChanges() throws {
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("reflex:status"), withIntermediateDirectories: true)
        folder.write("255\n", to: "reflex:status/max_brightness")
        folder.write("0\n", to: "reflex:status/brightness")
        var said: [String] = []
        let light = try #require(StatusLight(name: "reflex:status", folder: folder.path, log: { said.append($0) }))
        func brightness() -> String { (try? String(contentsOfFile: folder.file("reflex:status/brightness"), encoding: .utf8)) ?? "" }
        light.set(true)
        #expect(brightness() == "255\n")
        // (A write the state did not need would show: the file, overwritten in place, stays so.)
        let handle = try #require(FileHandle(forWritingAtPath: folder.file("reflex:status/brightness")))
        handle.write(Data("untouched".utf8))
        try handle.close()
        light.set(true)
        #expect(brightness() == "untouched")
        light.set(false)
        #expect(brightness().hasPrefix("0\n"))
        #expect(said.isEmpty)
    }

    /// An input device's LED (the QEMU board's virtual one) is numbered as the device is:
    /// the board names it by a pattern.
    @Test func aPatternFindsTheLEDWhoseNumberChanges() throws {
        let folder = TemporaryFolder()
        for led in ["input3::capslock", "input7::misc"] {
            try FileManager.default.createDirectory(atPath: folder.file(led), withIntermediateDirectories: true)
            folder.write("1\n", to: led + "/max_brightness")
            folder.write("0\n", to: led + "/brightness")
        }
        let light = try #require(StatusLight(name: "input*::misc", folder: folder.path, log: { _ in }))
        #expect(light.name == "input7::misc")
        light.set(true)
        #expect((try? String(contentsOfFile: folder.file("input7::misc/brightness"), encoding: .utf8)) == "1\n")
        var said: [String] = []
        #expect(StatusLight(name: "input*::kana", folder: folder.path, log: { said.append($0) }) == nil)
        #expect(said.count == 1 && said[0].contains("input*::kana"))
    }

    @Test func aMissingLEDIsSaidAndGivesNone() {
        let folder = TemporaryFolder()
        var said: [String] = []
        #expect(StatusLight(name: "nothing", folder: folder.path, log: { said.append($0) }) == nil)
        #expect(said.count == 1 && said[0].contains("nothing"))
    }
}
