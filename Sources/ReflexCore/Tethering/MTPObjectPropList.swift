/// MTP's GetObjectPropList (0x9805): many objects' properties in one answer, which libmtp
/// (and so GNOME's gvfs and KDE's kio-mtp) asks for instead of one GetObjectPropValue a file
/// and property, a card of a thousand photos listed in one round trip rather than ten
/// thousand. Pure: the answer is made from the card's object table.
///
/// The operation's parameters (MTP 1.1 §D.2.23): the object (0xFFFFFFFF: every object; 0: the
/// storage's root), a format to keep (0: any), the property (0xFFFFFFFF: every one), a
/// property group (Reflex has none: asked for by group, the answer says so), and the depth
/// below the object (0: the object alone; 0xFFFFFFFF: all the way down).
public enum MTPObjectPropList {
    public static let everyObject: UInt32 = 0xFFFF_FFFF
    public static let everyProperty: UInt32 = 0xFFFF_FFFF
    public static let everyLevel: UInt32 = 0xFFFF_FFFF

    /// The ObjectPropList dataset for the request, or the response code refusing it.
    public static func answer(_ parameters: [UInt32], objects: PTPObjectTable, storageID: UInt32) -> Result<[UInt8], PTPResponseCode> {
        func parameter(_ index: Int) -> UInt32 { index < parameters.count ? parameters[index] : 0 }
        let (handle, format, property, group, depth) = (parameter(0), parameter(1), parameter(2), parameter(3), parameter(4))
        guard format == 0 || (format <= UInt32(UInt16.max) && PTPObjectFormat(rawValue: UInt16(format)) != nil) else {
            return .failure(.invalidObjectFormatCode)
        }
        let properties: [MTPObjectProperty]
        switch property {
        case everyProperty: properties = MTPObjectProperty.allCases
        case 0: return .failure(group == 0 ? .objectPropNotSupported : .specificationByGroupUnsupported)
        default:
            guard property <= UInt32(UInt16.max), let one = MTPObjectProperty(rawValue: UInt16(property)) else {
                return .failure(.objectPropNotSupported)
            }
            properties = [one]
        }
        guard let handles = listed(from: handle, depth: depth, objects: objects) else { return .failure(.invalidObjectHandle) }
        let kept = handles.compactMap(objects.object).filter { format == 0 || UInt32($0.format.rawValue) == format }
        var writer = PTPDataWriter()
        writer.append(UInt32(kept.count * properties.count))
        for object in kept {
            for property in properties {
                writer.append(object.handle)
                writer.append(property.rawValue)
                writer.append(property.dataType)
                writer.append(bytes: property.value(of: object, storageID: storageID))
            }
        }
        return .success(writer.bytes)
    }

    /// The handles the request reaches, in order (each folder before what is in it); nil when
    /// `handle` is no object of the card.
    static func listed(from handle: UInt32, depth: UInt32, objects: PTPObjectTable) -> [UInt32]? {
        if handle == everyObject { return objects.handles(format: 0, parent: 0) }
        var found: [UInt32] = []
        // (The root is not an object: its depth 1 is the objects at the root.)
        if handle != 0 {
            guard objects.object(handle) != nil else { return nil }
            found.append(handle)
        }
        var level = [handle], levelsLeft = depth
        while levelsLeft > 0, !level.isEmpty {
            level = level.flatMap { objects.handles(format: 0, parent: $0 == 0 ? PTPObjectTable.root : $0) ?? [] }
            found += level
            if levelsLeft != everyLevel { levelsLeft -= 1 }
        }
        return found
    }
}
