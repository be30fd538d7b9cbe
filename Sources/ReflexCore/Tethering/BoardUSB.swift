/// A hardware maker's own USB identity for the board (its usb.conf). Without the file the
/// camera uses the Linux Foundation's IDs for a composite gadget (1d6b:0104) and names
/// itself `Reflex`, `Reflex <board>`: fine on a bench, but a product ships with its maker's
/// vendor ID (from the USB-IF) and a product ID of its own, so hosts and their quirk tables
/// can tell it apart.
///
///     vendor-id = 0x2e8a          the maker's vendor ID (hex; 0x optional)
///     product-id = 0x0101         with it, always: an ID means nothing without the other
///     manufacturer = Example Co   the strings a computer shows (at most 126 characters)
///     product = Example Cam One
///
/// The serial stays the machine's (each camera its own); the interface stays the still-image
/// class, so gphoto2 and libmtp find it whatever the IDs.
public struct BoardUSB: Sendable, Equatable {
    public var vendorID: UInt16?
    public var productID: UInt16?
    public var manufacturer: String?
    public var product: String?

    public init() {}

    public static func parse(_ text: String) -> Result<BoardUSB, KeyValueText.ConfigurationProblem> {
        var usb = BoardUSB()
        let problem = KeyValueText.readConfiguration(text) { key, value in
            switch key {
            case "vendor-id":
                guard let id = hexID(value), id != 0 else { return .badValue }
                usb.vendorID = id
            case "product-id":
                guard let id = hexID(value) else { return .badValue }
                usb.productID = id
            case "manufacturer":
                guard let string = descriptorString(value) else { return .badValue }
                usb.manufacturer = string
            case "product":
                guard let string = descriptorString(value) else { return .badValue }
                usb.product = string
            default: return .unknownKey
            }
            return .accepted
        }
        if let problem { return .failure(problem) }
        if usb.vendorID != nil, usb.productID == nil { return .failure(.missingKey("product-id")) }
        if usb.productID != nil, usb.vendorID == nil { return .failure(.missingKey("vendor-id")) }
        return .success(usb)
    }

    /// "0x2e8a" or "2E8A": one to four hex digits.
    static func hexID(_ text: String) -> UInt16? {
        let digits = text.lowercased().hasPrefix("0x") ? String(text.dropFirst(2)) : text
        guard (1...4).contains(digits.count), digits.allSatisfy(\.isHexDigit) else { return nil }
        return UInt16(digits, radix: 16)
    }

    /// A USB string descriptor holds at most 126 UTF-16 units; no control characters (configfs
    /// takes a line, and a host shows it in one).
    static func descriptorString(_ text: String) -> String? {
        guard (1...126).contains(text.utf16.count), !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { return nil }
        return text
    }
}
