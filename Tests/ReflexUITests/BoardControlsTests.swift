import Foundation
import ReflexCore
import ReflexISP
import ReflexUI
import Testing

/// The board's controls (controls.conf): which encoder does what, the keys, and the feel of
/// a detent (issue: controls, parts 3 and 4).
@Suite struct BoardControlsTests {
    static let metered = InterfaceControllerTests.metered

    static func pro() -> InterfaceController {
        var settings = CameraSettings()
        settings.mode = .pro
        return InterfaceControllerTests.controller(settings)
    }

    /// `count` detents of encoder `wheel`, `interval` seconds apart from `start`.
    static func turn(_ c: inout InterfaceController, wheel: Int, detents count: Int, interval: Double, start: Double,
                     clockwise: Bool = true) -> InterfaceController.Outcome {
        var total = InterfaceController.Outcome()
        for i in 0..<count {
            let o = c.handle(.wheel(wheel: wheel, v120: clockwise ? 120 : -120), at: start + Double(i) * interval, metered: metered)
            total.ticks += o.ticks
            total.bumped = total.bumped || o.bumped
        }
        return total
    }

    @Test func aBoardFileNamesEachEncodersDialAndItsKeys() throws {
        let text = """
        # A Fujifilm-like body: front dial shutter, rear dial ISO, lens ring focus.
        encoder.front = shutter
        encoder.rear = iso
        encoder.lens = focus
        zoom-in-keys = KEY_ZOOMIN, BTN_4
        zoom-out-keys = KEY_ZOOMOUT
        menu-keys = KEY_OK
        record-keys = 0x167
        """
        #expect((try? BoardControls.parse(text).get()) == nil, "0x167 is not a key: numbers are decimal")
        let controls = try BoardControls.parse(text.replacingOccurrences(of: "0x167", with: "KEY_RECORD")).get()
        #expect(controls.encoders.map(\.name) == ["front", "lens", "rear"])
        let rear = try #require(controls.encoderIndex(named: "rear"))
        #expect(controls.role(ofEncoder: rear) == .dial(.iso))
        #expect(controls.role(ofEncoder: -1) == .selectedDial, "an unnamed wheel turns the selected dial")
        #expect(controls.zoomInKeys == [KeyCode.zoomIn, 0x104])
        #expect(controls.menuKeys == [0x160])
        #expect((try? BoardControls.parse("encoder.1 = aperture\n").get()) == nil)
    }

    @Test func aBoardNamesTheLEDTheSelfTimerBlinks() throws {
        #expect(BoardControls().statusLight == nil)
        #expect(try BoardControls.parse("status-led = reflex:status\n").get().statusLight == "reflex:status")
        for bad in ["status-led =\n", "status-led = ../../power/state\n", "status-led = ..\n"] {
            guard case .failure = BoardControls.parse(bad) else {
                Issue.record("\(bad) was accepted")
                continue
            }
        }
    }

    @Test func eachEncoderTurnsItsOwnDial() throws {
        var c = Self.pro()
        c.controls = try BoardControls.parse("encoder.front = shutter\nencoder.rear = iso\n").get()
        let before = c.model.settings
        _ = Self.turn(&c, wheel: 0, detents: 2, interval: 0.5, start: 1)  // front: shutter
        #expect(c.model.settings.selectedDial == .shutter)
        #expect(c.model.settings.shutter != before.shutter && c.model.settings.iso == before.iso)
        _ = Self.turn(&c, wheel: 1, detents: 1, interval: 0.5, start: 5)  // rear: ISO
        #expect(c.model.settings.selectedDial == .iso && c.model.settings.iso != before.iso)
    }

    @Test func nSlowDetentsAreNStopsAndStopAtTheBound() throws {
        var c = Self.pro()
        // Out of Auto: the first detent goes to the metered ISO 400.
        _ = Self.turn(&c, wheel: 0, detents: 1, interval: 0.3, start: 0)
        let start = try #require(c.model.settings.iso.manualValue)
        let up = Self.turn(&c, wheel: 0, detents: 3, interval: 0.3, start: 1)
        #expect(up.ticks == 3 && !up.bumped)
        let scale = c.model.isoScale
        let startIndex = try #require(scale.stops.firstIndex(of: start))
        #expect(c.model.settings.iso.manualValue == scale.stops.dropFirst(startIndex + 3).first)
        let spin = Self.turn(&c, wheel: 0, detents: 200, interval: 0.3, start: 5)
        #expect(spin.bumped, "the bound is felt")
        #expect(c.model.settings.iso.manualValue == scale.stops.last, "and held")
    }

    @Test func aFastSpinTakesMoreStopsADetentButNeverPassesTheBound() {
        var slow = Self.pro(), fast = Self.pro()
        _ = Self.turn(&slow, wheel: 0, detents: 1, interval: 0.3, start: 0)
        _ = Self.turn(&fast, wheel: 0, detents: 1, interval: 0.3, start: 0)
        let slowTurn = Self.turn(&slow, wheel: 0, detents: 3, interval: 0.3, start: 1)
        let fastTurn = Self.turn(&fast, wheel: 0, detents: 3, interval: 0.03, start: 1)
        #expect(slowTurn.ticks == 3)
        #expect(fastTurn.ticks == 7, "a flick goes further: 1 + 3 + 3 stops for 3 detents, not \(fastTurn.ticks)")
        let spin = Self.turn(&fast, wheel: 0, detents: 100, interval: 0.02, start: 3)
        #expect(spin.bumped && fast.model.settings.iso.manualValue == fast.model.isoScale.stops.last)
        // Back the other way: the first detents after a reversal are one stop each.
        let back = Self.turn(&fast, wheel: 0, detents: 1, interval: 0.02, start: 6, clockwise: false)
        #expect(back.ticks == 1)
    }

    @Test func anEncodersPushSelectsTheNextDial() {
        var c = Self.pro()
        #expect(c.model.settings.selectedDial == .iso)
        _ = c.handle(.key(code: 0x110, pressed: true), at: 1, metered: Self.metered)
        _ = c.handle(.key(code: 0x110, pressed: false), at: 1.1, metered: Self.metered)
        #expect(c.model.settings.selectedDial == .shutter)
    }

    @Test func theAccelerationIsOneStopADetentWhenSlow() {
        var pace = DialAcceleration()
        #expect(pace.stops(forDetents: 1, at: 0) == 1)
        #expect(pace.stops(forDetents: 1, at: 0.5) == 1)
        #expect(pace.stops(forDetents: 1, at: 0.6) == 2)
        #expect(pace.stops(forDetents: 1, at: 0.65) == 3)
        #expect(pace.stops(forDetents: -1, at: 0.7) == -1, "a reversal is careful")
        #expect(pace.stops(forDetents: 2, at: 0.75) == 2, "a reversal again")
    }
}

/// The board files shipped in the repository parse, and say what their comments say.
@Suite struct ShippedControlsFilesTests {
    static func board(_ path: String) throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent("Board/" + path), encoding: .utf8)
    }

    /// The QEMU board's keys and dials are the defaults, spelled out; it adds its status LED.
    @Test func theQEMUBoardsFileIsTheDefaultsAndItsLED() throws {
        var expected = BoardControls()
        expected.statusLight = "input*::misc"
        #expect(try BoardControls.parse(Self.board("qemu-x86_64/controls.conf")).get() == expected)
    }

    @Test func theExampleBodyHasADialEach() throws {
        let controls = try BoardControls.parse(Self.board("examples/controls.conf")).get()
        let front = try #require(controls.encoderIndex(named: "front")), lens = try #require(controls.encoderIndex(named: "lens"))
        #expect(controls.role(ofEncoder: front) == .dial(.shutter))
        #expect(controls.role(ofEncoder: lens) == .dial(.focus))
        #expect(controls.nextDialKeys == [0x160])
        let rules = try Self.board("examples/70-reflex-controls.rules")
        for name in ["front", "rear", "lens"] { #expect(rules.contains("REFLEX_DIAL}=\"\(name)\"")) }
    }
}
