import ReflexCore
import ReflexISP
import ReflexUI
import Testing

/// Geotag's consent (docs/camera.md, Geotagging): the first switch-on asks, with Allow and Don't
/// allow; only Allow turns it on, and is remembered.
@Suite struct GeotagConsentTests {
    typealias Menu = QuickMenuTests
    static let layout = Menu.layout
    static let metered = Menu.metered

    static func centre(_ rect: PixelRect) -> (x: Int, y: Int) { (rect.x + rect.width / 2, rect.y + rect.height / 2) }

    /// The menu opened by touch and geotag's value tapped forward.
    static func switchGeotag(_ c: inout InterfaceController, at t: Double) -> InterfaceController.Outcome {
        if !c.menu.isOpen { _ = Menu.tapAt(&c, x: layout.menuButton.x + 10, y: layout.menuButton.y + 10, at: t) }
        let row = Menu.row(.geotag)
        return Menu.tapAt(&c, x: row.x + row.width - 10, y: row.y + row.height / 2, at: t + 0.5)
    }

    @Test func theFirstSwitchOnAsksAndAllowTurnsItOn() {
        var c = InterfaceControllerTests.controller()
        let asked = Self.switchGeotag(&c, at: 1)
        #expect(c.menu.isAskingConsent && !c.model.settings.geotag && !asked.settingsChanged)
        #expect(asked.haptic == .tick)
        // A stray tap on the screen's text, or on the menu behind it, does nothing.
        let text = Self.centre(Self.layout.menuPanel)
        let stray = Menu.tapAt(&c, x: text.x, y: Self.layout.menuPanel.y + 60, at: 2)
        #expect(c.menu.isAskingConsent && !stray.settingsChanged)
        _ = Menu.tapAt(&c, x: 1000, y: 400, at: 3)
        #expect(c.menu.isAskingConsent && c.menu.isOpen, "only an answer ends the question")
        let allow = Self.centre(Self.layout.consentAllowButton)
        let allowed = Menu.tapAt(&c, x: allow.x, y: allow.y, at: 4)
        #expect(allowed.settingsChanged && allowed.haptic == .confirm)
        #expect(c.model.settings.geotag && c.model.settings.geotagConsent)
        #expect(!c.menu.isAskingConsent && c.menu.isOpen, "back in the menu")
        // Off, then on again: no second question.
        _ = Self.switchGeotag(&c, at: 5)
        #expect(!c.model.settings.geotag)
        let again = Self.switchGeotag(&c, at: 6)
        #expect(again.settingsChanged && c.model.settings.geotag && !c.menu.isAskingConsent)
    }

    @Test func dontAllowLeavesItOffAndAsksAgainNextTime() {
        var c = InterfaceControllerTests.controller()
        _ = Self.switchGeotag(&c, at: 1)
        let deny = Self.centre(Self.layout.consentDenyButton)
        let denied = Menu.tapAt(&c, x: deny.x, y: deny.y, at: 2)
        #expect(!denied.settingsChanged && !c.model.settings.geotag && !c.model.settings.geotagConsent)
        #expect(!c.menu.isAskingConsent && c.menu.isOpen)
        _ = Self.switchGeotag(&c, at: 3)
        #expect(c.menu.isAskingConsent, "asked again: nothing was allowed")
    }

    @Test func theDialsAnswerToo() {
        var c = InterfaceControllerTests.controller()
        _ = Menu.press(&c, KeyCode.menu, at: 1)
        _ = c.handle(.wheel(wheel: 1, v120: 120 * (QuickMenuItem.geotag.rawValue - c.menu.highlighted.rawValue)),
                     at: 2, metered: Self.metered)
        #expect(c.menu.highlighted == .geotag)
        _ = c.handle(.wheel(wheel: 0, v120: 120), at: 3, metered: Self.metered)
        #expect(c.menu.isAskingConsent && !c.menu.consentAllowHighlighted, "Don't allow is where the dials start")
        let moved = c.handle(.wheel(wheel: 0, v120: 120), at: 4, metered: Self.metered)
        #expect(c.menu.consentAllowHighlighted && moved.haptic == .tick && !moved.settingsChanged)
        // The encoder's push picks the answer the dials are on.
        let pushed = Menu.press(&c, 0x110, at: 5)
        #expect(pushed.settingsChanged && c.model.settings.geotag && c.model.settings.geotagConsent)
    }

    @Test func theMenuKeyAndTheShutterAreDontAllow() {
        var c = InterfaceControllerTests.controller()
        _ = Self.switchGeotag(&c, at: 1)
        _ = Menu.press(&c, KeyCode.menu, at: 2)
        #expect(!c.menu.isAskingConsent && c.menu.isOpen && !c.model.settings.geotag)
        _ = Self.switchGeotag(&c, at: 3)
        let shot = Menu.press(&c, KeyCode.camera, at: 4)
        #expect(shot.capture == 4 && !c.menu.isOpen && !c.menu.isAskingConsent && !c.model.settings.geotag)
    }

    @Test func theIconFollowsTheSwitchAndGpsd() {
        #expect(GPSIndicator(geotag: false, status: .fix) == .off, "off: no icon, whatever gpsd says")
        #expect(GPSIndicator(geotag: true, status: .fix) == .fix)
        #expect(GPSIndicator(geotag: true, status: .searching) == .searching)
        #expect(GPSIndicator(geotag: true, status: .connecting) == .searching)
        #expect(GPSIndicator(geotag: true, status: .serviceNotRunning) == .unavailable)
        #expect(GPSIndicator(geotag: true, status: .noReceiver) == .unavailable)
        #expect(GPSStatus.noReceiver.refusal == "No GPS receiver")
        #expect(GPSStatus.serviceNotRunning.refusal == "GPS service not running")
        #expect(InterfaceText.geotagRefused("No GPS receiver") == "No GPS receiver · Geotag off (Menu › Geotag)")
    }

    @Test func theConsentIsRememberedInTheSettingsFile() throws {
        var settings = CameraSettings()
        #expect(settings.value(of: .geotagConsent) == "off")
        try settings.set(.geotagConsent, from: "on")
        #expect(settings.geotagConsent && settings.value(of: .geotagConsent) == "on")
    }
}
