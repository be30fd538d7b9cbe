/// The still-image class's own requests on the control endpoint (USB Still Image Capture
/// Device Definition §5.2), as FunctionFS hands them over (its SETUP event's 8 bytes).
public enum StillImageRequest: Sendable, Equatable {
    /// The host cancels the transaction under way (its ID; the data stage carries it).
    case cancel
    /// The host resets the device: the session ends.
    case deviceReset
    /// The host asks whether the device is ready (answered with `deviceStatus`).
    case getDeviceStatus(length: Int)
    /// Any other request: stalled.
    case unsupported

    static let classOut: UInt8 = 0x21, classIn: UInt8 = 0xA1

    /// The request in a SETUP packet (bmRequestType, bRequest, wValue, wIndex, wLength).
    public init(setup bytes: [UInt8]) {
        guard bytes.count >= 8 else {
            self = .unsupported
            return
        }
        let length = Int(bytes[6]) | Int(bytes[7]) << 8
        switch (bytes[0], bytes[1]) {
        case (Self.classOut, 0x64) where length == 6: self = .cancel
        case (Self.classOut, 0x66) where length == 0: self = .deviceReset
        case (Self.classIn, 0x67) where length >= 4: self = .getDeviceStatus(length: length)
        default: self = .unsupported
        }
    }

    /// Get Device Status's answer: its length, then OK or Device Busy.
    public static func deviceStatus(busy: Bool) -> [UInt8] {
        var writer = PTPDataWriter()
        writer.append(UInt16(4))
        writer.append((busy ? PTPResponseCode.deviceBusy : .ok).rawValue)
        return writer.bytes
    }
}
