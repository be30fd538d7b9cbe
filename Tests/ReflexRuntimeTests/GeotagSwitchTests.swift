import ReflexTestSupport
import ReflexCore
import ReflexHardware
import ReflexSystem
import ReflexUI
import Testing
@testable import ReflexRuntime

/// Geotag switched on the camera, against a real gpsd (or none): the realtime loop driven
/// frame by frame on the headless display, the switch walked with the dials and the consent
/// answered with the encoder's push. gpsd is a real process and answers in its own time:
/// the rig's clock stands still while the test waits for the client to hear it, then the
/// loop's frames show what it heard (the loop's own patience, 4 s for the first answer, is
/// on the rig's clock and never runs out while gpsd is slow).
@Suite("Geotag's switch and icon", .serialized)
struct GeotagSwitchTests {
    typealias Rig = InterfacePainterTests.Rig

    /// Menu key, the dial picker down to Geotag, the value dial (the consent screen), the
    /// value dial again (onto Allow), the push (Allow).
    static func switchOnWithTheDials(_ rig: Rig) {
        func send(_ event: InputEvent) {
            rig.loop.inject(event, at: rig.clock.now)
            rig.run(frames: 1)
        }
        send(.key(code: KeyCode.menu, pressed: true))
        send(.key(code: KeyCode.menu, pressed: false))
        send(.wheel(wheel: 1, v120: 120 * QuickMenuItem.geotag.rawValue))
        send(.wheel(wheel: 0, v120: 120))
        #expect(rig.loop.shownState.menu.isAskingConsent, "the consent screen first")
        send(.wheel(wheel: 0, v120: 120))
        send(.key(code: 0x110, pressed: true))
        send(.key(code: 0x110, pressed: false))
    }

    @Test func withoutGpsdTheSwitchGoesBackOffWithTheReason() throws {
        let rig = try Rig(gpsdPort: 29_490)  // nothing listens there
        #expect(rig.gps!.start() && rig.loop.startPainter())
        defer { rig.loop.stop(); rig.gps!.stop() }
        rig.run(frames: 3)
        Self.switchOnWithTheDials(rig)
        #expect(rig.loop.shownState.settings.geotagConsent, "Allow is remembered")
        #expect(rig.waitForRefusal(.serviceNotRunning), "the client found no gpsd")
        let refused = rig.run(until: { !rig.loop.shownState.settings.geotag }, frames: 3)
        #expect(refused, "geotag went back off")
        #expect(rig.loop.shownState.notice == InterfaceText.geotagRefused("GPS service not running"))
        #expect(rig.loop.shownState.gps == .off)
        #expect(rig.waitForGPS { $0 == .off }, "gpsd is no longer asked")
    }

    @Test(.tags(.externalTool)) func aGpsdWithoutAReceiverSaysNoGPSReceiver() throws {
        let gpsd = try GPSFake(log: nil, port: 29_491)
        defer { gpsd.stop() }
        let rig = try Rig(gpsdPort: gpsd.port)
        #expect(rig.gps!.start() && rig.loop.startPainter())
        defer { rig.loop.stop(); rig.gps!.stop() }
        rig.run(frames: 3)
        Self.switchOnWithTheDials(rig)
        #expect(rig.waitForRefusal(.noReceiver), "gpsd said it has no receiver")
        #expect(rig.run(until: { !rig.loop.shownState.settings.geotag }, frames: 3))
        #expect(rig.loop.shownState.notice == InterfaceText.geotagRefused("No GPS receiver"))
    }

    @Test(.tags(.externalTool)) func aReceiverKeepsItOnAndTheIconFillsWithTheFix() throws {
        let gpsd = try GPSFake(log: "bu353s4.log", port: 29_492)
        defer { gpsd.stop() }
        let rig = try Rig(gpsdPort: gpsd.port)
        #expect(rig.gps!.start() && rig.loop.startPainter())
        defer { rig.loop.stop(); rig.gps!.stop() }
        rig.run(frames: 3)
        let barBefore = rig.topBar()
        Self.switchOnWithTheDials(rig)
        #expect(rig.waitForGPS { $0 == .fix }, "gpsd's receiver gave a fix")
        #expect(rig.run(until: { rig.loop.shownState.gps == .fix }, frames: 3), "\(rig.loop.shownState.gps)")
        #expect(rig.loop.shownState.settings.geotag && rig.loop.shownState.notice == nil)
        rig.run(frames: 2)
        let iconDrawn = rig.topBar() != barBefore
        #expect(iconDrawn, "the icon is drawn")
    }

    /// gpsd stopped mid-run: the icon says so, geotag stays on (it was not just switched), and
    /// the fix comes back with gpsd.
    @Test(.tags(.externalTool)) func gpsdStoppedMidRunShowsOnTheIconAndComesBack() throws {
        var gpsd = try GPSFake(log: "neo-m8n.log", port: 29_493)
        var settings = CameraSettings()
        (settings.geotag, settings.geotagConsent) = (true, true)
        let rig = try Rig(settings: settings, gpsdPort: gpsd.port)
        rig.gps!.setEnabled(true)
        #expect(rig.gps!.start() && rig.loop.startPainter())
        defer { rig.loop.stop(); rig.gps!.stop() }
        #expect(rig.waitForGPS { $0 == .fix })
        #expect(rig.run(until: { rig.loop.shownState.gps == .fix }, frames: 3))
        gpsd.stop()
        #expect(rig.waitForGPS { $0 != .fix && $0 != .searching }, "the client saw gpsd go")
        #expect(rig.run(until: { rig.loop.shownState.gps == .unavailable }, frames: 3), "\(rig.loop.shownState.gps)")
        #expect(rig.loop.shownState.settings.geotag, "a remembered geotag stays on")
        gpsd = try GPSFake(log: "neo-m8n.log", port: 29_493)
        defer { gpsd.stop() }
        #expect(rig.waitForGPS { $0 == .fix }, "back with gpsd")
        #expect(rig.run(until: { rig.loop.shownState.gps == .fix }, frames: 3))
    }
}

extension InterfacePainterTests.Rig {
    /// Waits, with the rig's clock standing still, until the gpsd client's status as posted
    /// to the loop's board satisfies `condition` (gpsd is a real process: minutes at most,
    /// a bound no healthy machine nears; false if it never did).
    func waitForGPS(_ condition: (GPSStatus) -> Bool) -> Bool {
        waitUntil { condition(status.latestGPS) }
    }

    /// Waits the same way for gpsd's answer to a geotag just switched on: `refusal` posted,
    /// or already taken by the loop (the frames that switched it on may have seen it come).
    func waitForRefusal(_ refusal: GPSStatus) -> Bool {
        waitUntil { status.latestGPS == refusal || !loop.shownState.settings.geotag }
    }
}
