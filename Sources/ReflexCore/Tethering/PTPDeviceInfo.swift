/// The DeviceInfo dataset (ISO 15740 §5.5.1): what the camera is and what it really does —
/// a host decides from these lists which operations to try, which events to wait for and
/// which properties to show as settings. MTP's extension is declared the way Microsoft's
/// specification asks, so libmtp and a desktop's file manager treat the card as a device's
/// storage.
public struct PTPDeviceInfo: Sendable, Equatable {
    public var operations: [UInt16]
    public var events: [UInt16]
    public var properties: [UInt16]
    public var captureFormats: [UInt16]
    public var imageFormats: [UInt16]
    public var manufacturer: String
    public var model: String
    public var deviceVersion: String
    public var serialNumber: String

    /// PTP 1.1 (DNG's format code is 1.1's).
    public static let standardVersion: UInt16 = 110
    /// Microsoft's vendor extension ID: MTP.
    public static let mtpVendorExtension: UInt32 = 6
    public static let mtpExtensions = "microsoft.com: 1.0;"

    public init(operations: [UInt16], events: [UInt16], properties: [UInt16], captureFormats: [UInt16], imageFormats: [UInt16],
                manufacturer: String, model: String, deviceVersion: String, serialNumber: String) {
        (self.operations, self.events, self.properties) = (operations, events, properties)
        (self.captureFormats, self.imageFormats) = (captureFormats, imageFormats)
        (self.manufacturer, self.model, self.deviceVersion, self.serialNumber) = (manufacturer, model, deviceVersion, serialNumber)
    }

    public func encoded() -> [UInt8] {
        var writer = PTPDataWriter()
        writer.append(Self.standardVersion)
        writer.append(Self.mtpVendorExtension)
        writer.append(UInt16(100))
        writer.append(string: Self.mtpExtensions)
        writer.append(UInt16(0))  // functional mode: standard
        writer.append(array: operations)
        writer.append(array: events)
        writer.append(array: properties)
        writer.append(array: captureFormats)
        writer.append(array: imageFormats)
        writer.append(string: manufacturer)
        writer.append(string: model)
        writer.append(string: deviceVersion)
        writer.append(string: serialNumber)
        return writer.bytes
    }

    /// The dataset read back (a host's view; the tests').
    public static func decode(_ bytes: [UInt8]) throws(PTPDataReader.Overrun) -> PTPDeviceInfo {
        var reader = PTPDataReader(bytes)
        _ = try reader.uint16()
        _ = try reader.uint32()
        _ = try reader.uint16()
        _ = try reader.string()
        _ = try reader.uint16()
        let operations = try reader.uint16Array(), events = try reader.uint16Array(), properties = try reader.uint16Array()
        let capture = try reader.uint16Array(), image = try reader.uint16Array()
        return PTPDeviceInfo(operations: operations, events: events, properties: properties, captureFormats: capture,
                             imageFormats: image, manufacturer: try reader.string(), model: try reader.string(),
                             deviceVersion: try reader.string(), serialNumber: try reader.string())
    }
}
