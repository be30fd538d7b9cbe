/// MTP's object properties (the MTP specification's Appendix B) a host lists a card's files
/// by: libmtp asks for them, and so a desktop's file manager (GNOME's gvfs, KDE's kio-mtp)
/// shows names, sizes and dates from them. Each is read-only: the card is the camera's.
public enum MTPObjectProperty: UInt16, Sendable, CaseIterable {
    case storageID = 0xDC01
    case objectFormat = 0xDC02
    case protectionStatus = 0xDC03
    case objectSize = 0xDC04
    case objectFileName = 0xDC07
    case dateCreated = 0xDC08
    case dateModified = 0xDC09
    case parentObject = 0xDC0B
    case persistentUniqueObjectIdentifier = 0xDC41
    case name = 0xDC44

    /// Its type's code (§5.3 and MTP's: UINT128 0x000A, a string 0xFFFF).
    public var dataType: UInt16 {
        switch self {
        case .storageID, .parentObject: 0x0006
        case .objectFormat, .protectionStatus: 0x0004
        case .objectSize: 0x0008
        case .persistentUniqueObjectIdentifier: 0x000A
        case .objectFileName, .dateCreated, .dateModified, .name: 0xFFFF
        }
    }

    /// The ObjectPropDesc dataset: read-only, its default (zero or empty), no group, no form
    /// but the dates' (DateTime, form 5).
    public func description() -> [UInt8] {
        var writer = PTPDataWriter()
        writer.append(rawValue)
        writer.append(dataType)
        writer.append(UInt8(0))
        switch dataType {
        case 0x0004: writer.append(UInt16(0))
        case 0x0006: writer.append(UInt32(0))
        case 0x0008: writer.append(UInt64(0))
        case 0x000A: writer.append(bytes: [UInt8](repeating: 0, count: 16))
        default: writer.append(string: "")
        }
        writer.append(UInt32(0))
        writer.append(UInt8(self == .dateCreated || self == .dateModified ? 5 : 0))
        return writer.bytes
    }

    /// Its value for `object`, encoded as its type.
    public func value(of object: PTPObjectTable.Object, storageID: UInt32) -> [UInt8] {
        var writer = PTPDataWriter()
        let info = PTPResponder.info(object)
        switch self {
        case .storageID: writer.append(storageID)
        case .objectFormat: writer.append(object.format.rawValue)
        case .protectionStatus: writer.append(UInt16(info.isProtected ? 1 : 0))
        case .objectSize: writer.append(info.size)
        case .objectFileName, .name: writer.append(string: object.name)
        case .dateCreated: writer.append(string: info.captureDate)
        case .dateModified: writer.append(string: info.modificationDate)
        case .parentObject: writer.append(object.parent)
        case .persistentUniqueObjectIdentifier:
            // The same file on the same card has the same one in every session (handles are
            // the session's): a hash of its path, then its time on the card.
            writer.append(Self.pathHash(object.path))
            writer.append(UInt64(bitPattern: object.file?.modified ?? 0))
        }
        return writer.bytes
    }

    /// FNV-1a, 64 bits: stable across runs (Swift's own hashing is seeded per process).
    static func pathHash(_ path: String) -> UInt64 {
        path.utf8.reduce(0xcbf2_9ce4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }
}
