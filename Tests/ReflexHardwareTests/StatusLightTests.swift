import Foundation
import ReflexHardware
import ReflexTestSupport
import Testing

/// The status LED's writes, against a folder laid out as the LED class lays out
/// /sys/class/leds/NAME (a real LED class device, the kernel's user-space LED, is the QEMU
/// board's: see its self-timer scenario).
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

    @Test func aMissingLEDIsSaidAndGivesNone() {
        let folder = TemporaryFolder()
        var said: [String] = []
        #expect(StatusLight(name: "nothing", folder: folder.path, log: { said.append($0) }) == nil)
        #expect(said.count == 1 && said[0].contains("nothing"))
    }
}
