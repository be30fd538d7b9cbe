import ReflexCore

/// What the HUD bar shows, and nothing else of the state: the bar is painted again only when
/// this changes (a tap that moves the metering point, or a dial that changes nothing the bar
/// reads, costs no repaint before the frame that answers it).
struct TopBarContent: Equatable {
    let items: [InterfaceText.Item]
    let indicators: [InterfaceText.Indicator]
    let gps: GPSIndicator
    let usb: USBConnection
    let recording: RecordingIndicator?

    init(_ state: ViewState) {
        items = InterfaceText.hudItems(state)
        indicators = InterfaceText.indicators(state)
        gps = state.gps
        usb = state.usb
        recording = state.recording
    }

    /// The same bar but for the readout's values: the same items in the same places, the
    /// same indicators (a cell can then be painted again alone).
    func sameExceptValues(_ other: TopBarContent) -> Bool {
        items.map(\.label) == other.items.map(\.label) && indicators == other.indicators && gps == other.gps
            && usb == other.usb
            && recording == other.recording
    }
}
