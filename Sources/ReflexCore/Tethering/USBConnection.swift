/// The USB cable as the camera's screen shows it (the USB icon in the top bar, beside the
/// GPS one): nothing while USB is off or no computer has connected, the icon while a computer
/// has configured the camera, the icon struck through when the camera could not offer itself
/// (no device controller, no gadget support: the log says which).
public enum USBConnection: UInt8, Sendable, Equatable {
    case off, waiting, connected, unavailable
}
