@testable import ReflexUI
import ReflexCore
import Testing

/// The Pro dials' own rules, without the router: encoders by role, a double tap back to
/// automatic, peaking while focus turns.
@Suite("Dial control")
struct DialControlTests {
    static let metered = MeteredValues(iso: ISOSpeed(400), exposureSeconds: 1.0 / 125, focus: .infinity, kelvin: 5200)

    static func proModel() -> CameraModel {
        var settings = CameraSettings()
        settings.mode = .pro
        return CameraModel(settings: settings, limits: .unlimited)
    }

    @Test func detentsAreWholeAndTheRemainderKept() {
        var control = DialControl()
        let (half, otherHalf) = (control.detents(of: 0, v120: 60), control.detents(of: 0, v120: 60))
        #expect(half == 0 && otherHalf == 1, "two halves make a detent")
        let unnamed = control.detents(of: 42, v120: 120)
        #expect(unnamed == 1, "an unnamed wheel has a slot too")
    }

    @Test func thePickerSelectsTheNextDialAndTheOtherEncoderTurnsIt() {
        var control = DialControl(), model = Self.proModel(), outcome = InterfaceController.Outcome()
        let first = model.settings.selectedDial
        control.turn(wheel: 1, detents: 1, controls: BoardControls(), model: &model, metered: Self.metered, at: 0, into: &outcome)
        #expect(model.settings.selectedDial != first && outcome.settingsChanged)
        outcome = InterfaceController.Outcome()
        control.turn(wheel: 0, detents: 1, controls: BoardControls(), model: &model, metered: Self.metered, at: 1, into: &outcome)
        #expect(outcome.ticks >= 1 || outcome.bumped || outcome.settingsChanged, "the selected dial turned")
    }

    @Test func aDoubleTapPutsADialBackToAutomatic() {
        var control = DialControl(), model = Self.proModel(), outcome = InterfaceController.Outcome()
        control.turn(.iso, steps: 2, model: &model, metered: Self.metered, at: 0, into: &outcome)
        #expect(model.settings.iso != .auto)
        control.tap(.iso, model: &model, at: 1, into: &outcome)
        #expect(model.settings.iso != .auto, "one tap selects")
        control.tap(.iso, model: &model, at: 1 + InterfaceController.doubleTapInterval / 2, into: &outcome)
        #expect(model.settings.iso == .auto, "a double tap: automatic")
    }

    @Test func peakingShowsWhileFocusTurns() {
        var control = DialControl(), model = Self.proModel(), outcome = InterfaceController.Outcome()
        #expect(!control.peaking(at: 0))
        control.turn(.focus, steps: -1, model: &model, metered: Self.metered, at: 5, into: &outcome)
        #expect(control.peaking(at: 5.5) && !control.peaking(at: 5 + DialControl.peakingHold + 0.01))
    }
}
