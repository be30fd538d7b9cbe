import ReflexCore
import Testing

/// MTP's object properties (issue 55, files): what libmtp and a desktop's file manager list a
/// card's files by — each file's name, size, format, folder, dates and an identity that
/// stays the same for the same file on the same card.
@Suite struct MTPObjectPropertyTests {
    typealias Camera = PTPResponderTests.Camera

    @Test func aFileIsListedByItsNameSizeFolderAndDate() throws {
        let camera = Camera()
        var (responder, transaction) = PTPResponderTests.opened(camera)
        let all = responder.objects.handles(format: 0, parent: 0)!
        let raw = all[3]
        func value(_ property: MTPObjectProperty) -> [UInt8] {
            PTPResponderTests.bytes(PTPResponderTests.ask(&responder, &transaction, .getObjectPropValue,
                                                          [raw, UInt32(property.rawValue)], camera: camera))
        }
        var name = PTPDataReader(value(.objectFileName))
        #expect(try name.string() == "RFLX0002.DNG")
        var size = PTPDataReader(value(.objectSize))
        #expect(try size.uint64() == 2000)
        var parent = PTPDataReader(value(.parentObject))
        #expect(try parent.uint32() == all[1], "its DCF folder")
        var format = PTPDataReader(value(.objectFormat))
        #expect(try format.uint16() == PTPObjectFormat.dng.rawValue)
        var date = PTPDataReader(value(.dateModified))
        #expect(try date.string() == "20261129T090507")
        #expect(value(.persistentUniqueObjectIdentifier).count == 16)
        #expect(PTPResponderTests.ask(&responder, &transaction, .getObjectPropValue, [raw, 0xDC99], camera: camera).code
                == .objectPropNotSupported)
        #expect(PTPResponderTests.ask(&responder, &transaction, .getObjectPropValue, [999, 0xDC07], camera: camera).code
                == .invalidObjectHandle)
    }

    @Test func theSameFileKeepsItsIdentityInANewSession() {
        let camera = Camera()
        var first = PTPObjectTable(), second = PTPObjectTable()
        _ = first.update(camera.items)
        camera.items!.insert(PTPResponderTests.item(4, [("RFLX0004.JPG", false)]), at: 0)
        _ = second.update(camera.items)
        func identity(_ table: PTPObjectTable, _ name: String) -> [UInt8]? {
            table.handles(format: 0, parent: 0)!.compactMap { table.object($0) }.first { $0.name == name }
                .map { MTPObjectProperty.persistentUniqueObjectIdentifier.value(of: $0, storageID: PTPResponder.storageID) }
        }
        #expect(identity(first, "RFLX0001.JPG") == identity(second, "RFLX0001.JPG"))
        #expect(identity(first, "RFLX0001.JPG") != identity(first, "RFLX0003.JPG"))
    }

    @Test func everyPropertyIsDescribedReadOnly() throws {
        let camera = Camera()
        var (responder, transaction) = PTPResponderTests.opened(camera)
        var supported = PTPDataReader(PTPResponderTests.bytes(PTPResponderTests.ask(
            &responder, &transaction, .getObjectPropsSupported, [UInt32(PTPObjectFormat.exifJPEG.rawValue)], camera: camera)))
        let codes = try supported.uint16Array()
        #expect(codes == MTPObjectProperty.allCases.map(\.rawValue))
        for code in codes {
            let description = PTPResponderTests.bytes(PTPResponderTests.ask(&responder, &transaction, .getObjectPropDesc,
                                                                             [UInt32(code), 0x3801], camera: camera))
            var reader = PTPDataReader(description)
            #expect(try reader.uint16() == code)
            _ = try reader.uint16()
            #expect(try reader.uint8() == 0, "read-only: \(code)")
        }
        #expect(PTPResponderTests.ask(&responder, &transaction, .getObjectPropsSupported, [0x3999], camera: camera).code
                == .invalidObjectFormatCode)
    }
}
