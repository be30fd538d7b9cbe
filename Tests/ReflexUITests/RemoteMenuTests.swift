import ReflexCore
import Foundation
import ReflexTestSupport
import ReflexISP
import ReflexUI
import Testing

/// The quick menu's Remote (issue 54, the network): On shows the sheet a phone needs, a tap or
/// the menu key takes it down, its title brings it back; a camera without a way to serve
/// says why instead of turning on; Forget phones shows only while the remote is on.
@Suite struct RemoteMenuTests {
    typealias Menu = QuickMenuTests
    static let layout = Menu.layout

    /// The line's place among those shown for `settings`.
    static func row(_ item: QuickMenuItem, _ settings: CameraSettings) throws -> PixelRect {
        let index = try #require(QuickMenuItem.lines(for: settings).firstIndex(of: item))
        return layout.menuRows[index]
    }

    static func tapValue(_ c: inout InterfaceController, _ item: QuickMenuItem, at t: Double) throws -> InterfaceController.Outcome {
        let row = try row(item, c.model.settings)
        return Menu.tapAt(&c, x: row.x + row.width - 10, y: row.y + row.height / 2, at: t)
    }

    static func openMenu(_ c: inout InterfaceController, at t: Double) {
        _ = Menu.tapAt(&c, x: layout.menuButton.x + 10, y: layout.menuButton.y + 10, at: t)
    }

    @Test func onShowsTheSheetAndATapTakesItDown() throws {
        var c = InterfaceControllerTests.controller()
        Self.openMenu(&c, at: 1)
        let on = try Self.tapValue(&c, .remote, at: 2)
        #expect(on.settingsChanged && c.model.settings.remote)
        #expect(c.menu.isShowingRemote && c.menu.isOpen)
        // A tap anywhere, even on a menu line under the sheet, only takes the sheet down.
        let format = try Self.row(.format, c.model.settings)
        let down = Menu.tapAt(&c, x: format.x + format.width - 10, y: format.y + 5, at: 3)
        #expect(!c.menu.isShowingRemote && c.menu.isOpen && !down.settingsChanged)
        #expect(c.model.settings.format == .jpeg)
        // The line's title while on: the sheet again; the menu key takes it down.
        let remote = try Self.row(.remote, c.model.settings)
        _ = Menu.tapAt(&c, x: remote.x + 10, y: remote.y + remote.height / 2, at: 4)
        #expect(c.menu.isShowingRemote && c.model.settings.remote)
        _ = Menu.press(&c, KeyCode.menu, at: 5)
        #expect(!c.menu.isShowingRemote && c.menu.isOpen, "the key takes the sheet down, not the menu")
        // Off: no sheet.
        let off = try Self.tapValue(&c, .remote, at: 6)
        #expect(off.settingsChanged && !c.model.settings.remote && !c.menu.isShowingRemote)
    }

    @Test func theShutterClosesTheSheetAndTheMenu() throws {
        var c = InterfaceControllerTests.controller()
        Self.openMenu(&c, at: 1)
        _ = try Self.tapValue(&c, .remote, at: 2)
        let shot = Menu.press(&c, KeyCode.camera, at: 3)
        #expect(shot.capture != nil && !c.menu.isOpen && !c.menu.isShowingRemote)
    }

    @Test func aCameraWithoutAWaySaysWhyAndStaysOff() throws {
        var c = InterfaceControllerTests.controller()
        c.remoteUnavailable = InterfaceText.noRemoteNetwork
        Self.openMenu(&c, at: 1)
        let refused = try Self.tapValue(&c, .remote, at: 2)
        #expect(refused.notice == InterfaceText.noRemoteNetwork && refused.haptic == .bump)
        #expect(!c.model.settings.remote && !c.menu.isShowingRemote && !refused.settingsChanged)
    }

    @Test func forgetPhonesShowsWhileOnAndAsksTheRemoteToForget() throws {
        var settings = CameraSettings()
        #expect(!QuickMenuItem.lines(for: settings).contains(.forgetPhones))
        settings.remote = true
        #expect(QuickMenuItem.lines(for: settings).contains(.forgetPhones))
        var c = InterfaceControllerTests.controller(settings)
        Self.openMenu(&c, at: 1)
        let forgot = try Self.tapValue(&c, .forgetPhones, at: 2)
        #expect(forgot.forgetPhones && forgot.notice == InterfaceText.phonesForgotten && forgot.haptic == .confirm)
        #expect(!forgot.settingsChanged && c.model.settings == settings)
    }

    @Test func theSettingIsRememberedLikeAnyOther() throws {
        var settings = CameraSettings()
        try settings.set(.remote, from: "on")
        #expect(settings.remote && settings.value(of: .remote) == "on")
        #expect(throws: SettingsValueError.self) { try settings.set(.remote, from: "maybe") }
    }
}

/// The system tests tap menu lines by their place on the QEMU board's panel, which follows the
/// most lines the menu ever shows: their constant must follow the menu.
@Suite struct MenuPlacesInTheSystemTestsTests {
    @Test func theSystemTestsKnowHowManyLinesTheMenuHas() throws {
        let inputs = try String(contentsOfFile: GoldenImage.repository + "/image-build/systest/inputs.py", encoding: .utf8)
        let line = try #require(inputs.split(separator: "\n").first { $0.hasPrefix("MENU_MOST_LINES = ") })
        #expect(Int(line.dropFirst("MENU_MOST_LINES = ".count)) == QuickMenuItem.mostLines)
    }
}
