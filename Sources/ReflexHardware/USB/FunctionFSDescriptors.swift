import ReflexCore

/// What Reflex writes to FunctionFS's ep0 before the gadget can be bound (the kernel's
/// Documentation/usb/functionfs.rst, format v2): one interface of the still-image class
/// (6/1/1, so libgphoto2 and libmtp find it without a quirk) with bulk in, bulk out and
/// interrupt in, at full, high and SuperSpeed; then its one string, in US English.
public enum FunctionFSDescriptors {
    static let descriptorsMagicV2: UInt32 = 3
    static let stringsMagic: UInt32 = 2
    static let hasFullSpeed: UInt32 = 1, hasHighSpeed: UInt32 = 2, hasSuperSpeed: UInt32 = 4

    /// The interface's name as a host lists it. libmtp takes a device it does not know for
    /// an MTP one when "MTP" is in an interface's name (the camera answers MTP's operations).
    public static let interfaceName = "Reflex MTP"
    /// The interrupt endpoint's packet: an event container (24 bytes at most) fits.
    static let eventPacket: UInt16 = 64

    enum Speed { case full, high, superSpeed }

    /// The descriptors blob.
    public static func descriptors() -> [UInt8] {
        let full = endpoints(.full), high = endpoints(.high), superSpeed = endpoints(.superSpeed)
        var body = PTPDataWriter()
        body.append(UInt32(1 + 3))
        body.append(UInt32(1 + 3))
        body.append(UInt32(1 + 3 * 2))
        for set in [full, high, superSpeed] { body.append(bytes: interface() + set) }
        var blob = PTPDataWriter()
        blob.append(descriptorsMagicV2)
        blob.append(UInt32(12 + body.bytes.count))
        blob.append(hasFullSpeed | hasHighSpeed | hasSuperSpeed)
        blob.append(bytes: body.bytes)
        return blob.bytes
    }

    /// The strings blob: the interface's name.
    public static func strings() -> [UInt8] {
        let name = Array(interfaceName.utf8) + [0]
        var blob = PTPDataWriter()
        blob.append(stringsMagic)
        blob.append(UInt32(16 + 2 + name.count))
        blob.append(UInt32(1))  // strings
        blob.append(UInt32(1))  // languages
        blob.append(UInt16(0x0409))
        blob.append(bytes: name)
        return blob.bytes
    }

    /// The interface: class 6 (still image), subclass 1, protocol 1 (PIMA 15740), three
    /// endpoints, its name string 1.
    static func interface() -> [UInt8] { [9, 4, 0, 0, 3, 6, 1, 1, 1] }

    /// Bulk in (1), bulk out (2), interrupt in (3) at `speed`, each with its SuperSpeed
    /// companion there.
    static func endpoints(_ speed: Speed) -> [UInt8] {
        let bulkPacket: UInt16 = switch speed {
        case .full: 64
        case .high: 512
        case .superSpeed: 1024
        }
        // Full speed counts the interval in frames (ms); high and SuperSpeed in 2^(n-1)
        // microframes: 8 ms either way.
        let interval: UInt8 = speed == .full ? 8 : 7
        var bytes: [UInt8] = []
        func endpoint(_ address: UInt8, _ attributes: UInt8, _ packet: UInt16, _ interval: UInt8) {
            bytes += [7, 5, address, attributes, UInt8(packet & 0xFF), UInt8(packet >> 8), interval]
            if speed == .superSpeed {
                let perInterval: UInt16 = attributes == 3 ? packet : 0
                bytes += [6, 0x30, 0, 0, UInt8(perInterval & 0xFF), UInt8(perInterval >> 8)]
            }
        }
        endpoint(0x81, 2, bulkPacket, 0)
        endpoint(0x02, 2, bulkPacket, 0)
        endpoint(0x83, 3, eventPacket, interval)
        return bytes
    }

    /// The bulk endpoints' packet size at the speed the host connected at (FunctionFS does
    /// not say it: high speed, the Pi 5's and dummy_hcd's, unless told).
    public static let highSpeedBulkPacket = 512
}
