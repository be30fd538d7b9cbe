@testable import ReflexUI
import ReflexCore
import Testing

/// The quick menu's own rules, without the router: lines stepped by taps and encoders, the
/// highlight moved, geotag's consent asked first.
@Suite("Quick menu control")
struct QuickMenuControlTests {
    static let model = CameraModel(settings: CameraSettings(), limits: .unlimited)

    @Test func aTapOnALinesValueStepsIt() {
        var control = QuickMenuControl(), model = Self.model, outcome = InterfaceController.Outcome()
        control.toggle(into: &outcome)
        #expect(control.menu.isOpen)
        control.tap(.zebras, side: 1, model: &model, autoZoomAvailable: false, into: &outcome)
        #expect(control.menu.highlighted == .zebras && model.settings.zebras && outcome.settingsChanged)
        control.tap(.zebras, side: 0, model: &model, autoZoomAvailable: false, into: &outcome)
        #expect(model.settings.zebras, "a tap on the title only highlights")
    }

    @Test func geotagAsksFirstAndAllowIsRemembered() {
        var control = QuickMenuControl(), model = Self.model, outcome = InterfaceController.Outcome()
        control.toggle(into: &outcome)
        control.tap(.geotag, side: 1, model: &model, autoZoomAvailable: false, into: &outcome)
        #expect(control.menu.isAskingConsent && !model.settings.geotag)
        control.answerConsent(allow: true, model: &model, into: &outcome)
        #expect(!control.menu.isAskingConsent && model.settings.geotag && model.settings.geotagConsent)
    }

    @Test func withoutADetectorAutoZoomsLinesSayWhyAndChangeNothing() {
        var control = QuickMenuControl(), model = Self.model, outcome = InterfaceController.Outcome()
        control.tap(.autoZoom, side: 1, model: &model, autoZoomAvailable: false, into: &outcome)
        #expect(outcome.notice == InterfaceText.noAutoZoom && outcome.bumped && !model.settings.autoZoom)
    }

    @Test func theSelectedDialsEncoderChangesTheValueAndThePickerMovesTheHighlight() {
        // The default board: encoder 0 turns the selected dial, encoder 1 picks the dial.
        var control = QuickMenuControl(), model = Self.model, outcome = InterfaceController.Outcome()
        let controls = BoardControls()
        control.toggle(into: &outcome)
        let first = control.menu.highlighted
        control.turn(wheel: 1, detents: 1, controls: controls, model: &model, autoZoomAvailable: false, into: &outcome)
        #expect(control.menu.highlighted != first, "the picker moves the highlight")
        let before = model.settings
        control.turn(wheel: 0, detents: 1, controls: controls, model: &model, autoZoomAvailable: false, into: &outcome)
        #expect(model.settings != before, "the selected dial's encoder changes \(control.menu.highlighted)'s value")
    }
}
