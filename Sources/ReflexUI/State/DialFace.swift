import ReflexCore

/// What one Pro dial's face shows: compared with the face painted, it says whether the dial
/// must be painted again (a detent repaints its own dial, not all four).
struct DialFace: Equatable {
    let dial: Dial
    /// False for the focus dial of a camera without a focus control ("Fixed focus").
    let available: Bool
    let selected: Bool
    let manual: Bool
    let value: String
    let ruler: DialRuler?

    init(_ dial: Dial, _ state: ViewState, scales: DialScales) {
        self.dial = dial
        available = dial != .focus || state.hasFocusDial
        selected = available && state.settings.selectedDial == dial
        manual = available && InterfaceText.isManual(dial, state.settings)
        value = available ? InterfaceText.dialValue(dial, state) : ""
        ruler = available ? DialRuler(dial, state, scales: scales) : nil
    }
}
