/// What the camera is to a computer on its USB cable: nothing (Off: no gadget at all), the
/// card's files (Files: PTP and MTP, as a camera in its playback mode), or a camera the
/// computer also shoots with and sets (Tethered: capture and the exposure's properties).
public enum USBMode: String, Sendable, CaseIterable, Hashable {
    case off, files, tethered

    public var label: String {
        switch self {
        case .off: "Off"
        case .files: "Files"
        case .tethered: "Tethered"
        }
    }
}
