import ReflexCore
import Testing

/// MTP's GetObjectPropList (issue 55, files): the whole card's names, sizes, folders and
/// dates in one answer, as libmtp asks for it (every object, every property, all the way
/// down), and the narrower asks a host may make: one folder, one level, one format, one
/// property.
@Suite struct MTPObjectPropListTests {
    typealias Camera = PTPResponderTests.Camera

    /// One element of the list: the object, the property, its type and its value (numbers as
    /// numbers, strings as strings).
    struct Element: Equatable {
        let handle: UInt32, property: UInt16, type: UInt16, value: String
    }

    static func elements(_ bytes: [UInt8]) throws -> [Element] {
        var reader = PTPDataReader(bytes)
        let count = try reader.uint32()
        var found: [Element] = []
        for _ in 0..<count {
            let handle = try reader.uint32(), property = try reader.uint16(), type = try reader.uint16()
            let value: String
            switch type {
            case 0x0004: value = String(try reader.uint16())
            case 0x0006: value = String(try reader.uint32())
            case 0x0008: value = String(try reader.uint64())
            case 0x000A: value = "\(try reader.uint64()):\(try reader.uint64())"
            case 0xFFFF: value = try reader.string()
            default: Issue.record("type \(type) of property \(property)"); return found
            }
            found.append(Element(handle: handle, property: property, type: type, value: value))
        }
        #expect(reader.remaining == 0, "nothing after the last element")
        return found
    }

    func list(_ parameters: [UInt32], _ camera: Camera = Camera()) -> PTPReply {
        var (responder, transaction) = PTPResponderTests.opened(camera)
        return PTPResponderTests.ask(&responder, &transaction, .getObjectPropList, parameters, camera: camera)
    }

    /// libmtp's ask: every object, every property, every level; each value as
    /// GetObjectPropValue gives it.
    @Test func libmtpsAskListsTheWholeCardInOneAnswer() throws {
        let camera = Camera()
        var (responder, transaction) = PTPResponderTests.opened(camera)
        let reply = PTPResponderTests.ask(&responder, &transaction, .getObjectPropList,
                                          [0xFFFF_FFFF, 0, 0xFFFF_FFFF, 0, 0xFFFF_FFFF], camera: camera)
        #expect(reply.code == .ok)
        let elements = try Self.elements(PTPResponderTests.bytes(reply))
        let handles = responder.objects.handles(format: 0, parent: 0)!
        #expect(elements.count == handles.count * MTPObjectProperty.allCases.count)
        #expect(Set(elements.map(\.handle)) == Set(handles))
        let names = elements.filter { $0.property == MTPObjectProperty.objectFileName.rawValue }.map(\.value)
        #expect(names == ["DCIM", "100REFLX", "RFLX0001.JPG", "RFLX0002.DNG", "RFLX0002.JPG", "RFLX0003.JPG"],
                "folders before their files; the XMP sidecar not listed")
        let dng = try #require(elements.first { $0.value == "RFLX0002.DNG" }?.handle)
        func value(_ property: MTPObjectProperty) -> String? {
            elements.first { $0.handle == dng && $0.property == property.rawValue }?.value
        }
        #expect(value(.objectSize) == "2000")
        #expect(value(.objectFormat) == String(PTPObjectFormat.dng.rawValue))
        #expect(value(.parentObject) == String(handles[1]), "its DCF folder")
        #expect(value(.storageID) == String(PTPResponder.storageID))
        #expect(value(.dateModified) == "20261129T090507")
        // The same bytes as one GetObjectPropValue, property by property.
        for property in MTPObjectProperty.allCases {
            let one = PTPResponderTests.bytes(PTPResponderTests.ask(&responder, &transaction, .getObjectPropValue,
                                                                     [dng, UInt32(property.rawValue)], camera: camera))
            let listed = try Self.elements([1, 0, 0, 0] + [UInt8(dng & 0xFF), 0, 0, 0]
                                           + [UInt8(property.rawValue & 0xFF), UInt8(property.rawValue >> 8)]
                                           + [UInt8(property.dataType & 0xFF), UInt8(property.dataType >> 8)] + one)
            #expect(listed.first?.value == value(property), "\(property)")
        }
    }

    /// A folder alone, a folder and what is in it, the root's first level; one format, one
    /// property.
    @Test func aNarrowerAskListsOnlyWhatItReaches() throws {
        let camera = Camera()
        let folder: UInt32 = 2  // 100REFLX (DCIM is 1)
        let name = UInt32(MTPObjectProperty.objectFileName.rawValue)
        func names(_ parameters: [UInt32]) throws -> [String] {
            try Self.elements(PTPResponderTests.bytes(list(parameters, camera))).map(\.value)
        }
        #expect(try names([folder, 0, name, 0, 0]) == ["100REFLX"], "depth 0: the object alone")
        #expect(try names([folder, 0, name, 0, 1]) == ["100REFLX", "RFLX0001.JPG", "RFLX0002.DNG", "RFLX0002.JPG", "RFLX0003.JPG"])
        #expect(try names([0, 0, name, 0, 1]) == ["DCIM"], "the root's first level")
        #expect(try names([0, 0, name, 0, 0]).isEmpty, "the root is no object")
        #expect(try names([0, 0, name, 0, 2]) == ["DCIM", "100REFLX"])
        #expect(try names([0xFFFF_FFFF, UInt32(PTPObjectFormat.exifJPEG.rawValue), name, 0, 0])
                == ["RFLX0001.JPG", "RFLX0002.JPG", "RFLX0003.JPG"])
        let sizes = try Self.elements(PTPResponderTests.bytes(list([folder, UInt32(PTPObjectFormat.dng.rawValue),
                                                                    UInt32(MTPObjectProperty.objectSize.rawValue), 0, 1], camera)))
        #expect(sizes.map(\.value) == ["2000"] && sizes.map(\.type) == [0x0008])
    }

    /// What it cannot answer, it says: no such object, no such format or property, and
    /// properties asked for by group (Reflex has no groups).
    @Test func whatItCannotAnswerItRefusesWithTheCode() {
        #expect(list([999, 0, 0xFFFF_FFFF, 0, 0]).code == .invalidObjectHandle)
        #expect(list([0xFFFF_FFFF, 0x3999, 0xFFFF_FFFF, 0, 0]).code == .invalidObjectFormatCode)
        #expect(list([0xFFFF_FFFF, 0, 0xDC99, 0, 0]).code == .objectPropNotSupported)
        #expect(list([0xFFFF_FFFF, 0, 0, 1, 0]).code == .specificationByGroupUnsupported)
        let none = Camera()
        none.items = nil
        #expect(list([0xFFFF_FFFF, 0, 0xFFFF_FFFF, 0, 0xFFFF_FFFF], none).code == .ok, "no card: an empty list")
        #expect(PTPResponderTests.bytes(list([0xFFFF_FFFF, 0, 0xFFFF_FFFF, 0, 0xFFFF_FFFF], none)) == [0, 0, 0, 0])
    }

    @Test func theDeviceInfoOffersIt() {
        #expect(PTPResponder.deviceInfo(Camera()).operations.contains(PTPOperation.getObjectPropList.rawValue))
    }
}
