import ReflexCore

/// What the Pro controls show: the white balance presets (while the WB dial is selected)
/// and the four dial faces.
struct ControlsContent: Equatable {
    /// The preset row, with the one chosen, while the WB dial is selected; nil otherwise.
    let presetsShowing: WhiteBalance?
    let faces: [DialFace]

    init(_ state: ViewState, scales: DialScales) {
        presetsShowing = state.settings.selectedDial == .whiteBalance ? state.settings.whiteBalance : nil
        faces = Dial.allCases.map { DialFace($0, state, scales: scales) }
    }
}
