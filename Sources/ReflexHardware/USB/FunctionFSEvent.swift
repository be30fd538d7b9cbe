/// One event FunctionFS's ep0 hands the function (its `struct usb_functionfs_event`: 12
/// bytes, a SETUP packet's 8, the type, 3 of padding): the gadget bound or unbound, a host
/// that configured it (enable) or went away (disable), a class request to answer.
public enum FunctionFSEvent: Equatable, Sendable {
    case bind, unbind
    /// A host selected the configuration: the endpoints carry transfers now.
    case enable
    /// The host went away or reset the device: every transfer under way fails.
    case disable
    /// A request on the control endpoint for the function (its 8 bytes).
    case setup([UInt8])
    case suspend, resume

    /// The size of one event as ep0 reads it.
    public static let size = 12

    /// The events in what one read of ep0 gave (whole events only; an unknown type is skipped).
    public static func events(in bytes: [UInt8]) -> [FunctionFSEvent] {
        stride(from: 0, to: bytes.count - size + 1, by: size).compactMap { start in
            FunctionFSEvent(Array(bytes[start..<start + size]))
        }
    }

    init?(_ event: [UInt8]) {
        switch event[8] {
        case 0: self = .bind
        case 1: self = .unbind
        case 2: self = .enable
        case 3: self = .disable
        case 4: self = .setup(Array(event[0..<8]))
        case 5: self = .suspend
        case 6: self = .resume
        default: return nil
        }
    }
}
