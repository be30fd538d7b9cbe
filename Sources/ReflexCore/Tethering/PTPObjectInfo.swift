/// The ObjectInfo dataset (ISO 15740 §5.5.2): one file of the card (or a DCF folder, an
/// association) as a host lists it — its format, size, name, dates, its thumbnail's and its
/// picture's size, the folder it is in.
public struct PTPObjectInfo: Sendable, Equatable {
    public var storageID: UInt32
    public var format: PTPObjectFormat
    public var isProtected: Bool
    public var size: UInt64
    public var thumbnail: (format: PTPObjectFormat, bytes: UInt32, width: UInt32, height: UInt32)?
    public var picture: (width: UInt32, height: UInt32, bitDepth: UInt32)?
    /// The folder's handle (0: the storage's root).
    public var parent: UInt32
    public var fileName: String
    /// "YYYYMMDDThhmmss" (local time, as the camera's EXIF); empty when not known.
    public var captureDate: String
    public var modificationDate: String

    /// A folder's association type: a generic folder.
    static let genericFolder: UInt16 = 0x0001

    public init(storageID: UInt32, format: PTPObjectFormat, isProtected: Bool, size: UInt64, parent: UInt32, fileName: String,
                captureDate: String, modificationDate: String) {
        (self.storageID, self.format, self.isProtected, self.size) = (storageID, format, isProtected, size)
        (self.parent, self.fileName, self.captureDate, self.modificationDate) = (parent, fileName, captureDate, modificationDate)
    }

    public static func == (left: PTPObjectInfo, right: PTPObjectInfo) -> Bool { left.encoded() == right.encoded() }

    /// `bytes` past 4 GiB are declared 0xFFFFFFFF, as MTP does (its object size property
    /// carries the whole).
    public func encoded() -> [UInt8] {
        var writer = PTPDataWriter()
        writer.append(storageID)
        writer.append(format.rawValue)
        writer.append(UInt16(isProtected ? 0x0001 : 0x0000))
        writer.append(size > UInt64(UInt32.max) ? UInt32.max : UInt32(size))
        writer.append(thumbnail?.format.rawValue ?? 0)
        writer.append(thumbnail?.bytes ?? 0)
        writer.append(thumbnail?.width ?? 0)
        writer.append(thumbnail?.height ?? 0)
        writer.append(picture?.width ?? 0)
        writer.append(picture?.height ?? 0)
        writer.append(picture?.bitDepth ?? 0)
        writer.append(parent)
        writer.append(format == .association ? Self.genericFolder : UInt16(0))
        writer.append(UInt32(0))  // association description
        writer.append(UInt32(0))  // sequence number
        writer.append(string: fileName)
        writer.append(string: captureDate)
        writer.append(string: modificationDate)
        writer.append(string: "")  // keywords
        return writer.bytes
    }

    /// The dataset read back (a host's view: `reflex bench usb`, the tests). A format this
    /// camera does not make reads as undefined.
    public static func decode(_ bytes: [UInt8]) throws(PTPDataReader.Overrun) -> PTPObjectInfo {
        var reader = PTPDataReader(bytes)
        let storageID = try reader.uint32()
        let format = PTPObjectFormat(rawValue: try reader.uint16()) ?? .undefined
        let isProtected = try reader.uint16() != 0
        let size = UInt64(try reader.uint32())
        // (The thumbnail's format and size, the picture's size; after the parent, the
        // association's fields.)
        _ = try reader.uint16()
        for _ in 0..<6 { _ = try reader.uint32() }
        let parent = try reader.uint32()
        _ = try reader.uint16()
        _ = try reader.uint32()
        _ = try reader.uint32()
        return PTPObjectInfo(storageID: storageID, format: format, isProtected: isProtected, size: size, parent: parent,
                             fileName: try reader.string(), captureDate: try reader.string(), modificationDate: try reader.string())
    }

    /// A date as PTP writes it ("20261129T090507").
    public static func dateText(_ date: CivilDate) -> String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let year = String(date.year)
        return String(repeating: "0", count: max(0, 4 - year.count)) + year + two(date.month) + two(date.day) + "T"
            + two(date.hour) + two(date.minute) + two(date.second)
    }
}
