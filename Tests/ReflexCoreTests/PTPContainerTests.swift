import ReflexCore
import Testing

/// PTP's containers and data types as the USB still-image class puts them on the wire
/// (issue 55): what a host sends is read exactly or refused with the reason, never guessed.
@Suite struct PTPContainerTests {
    /// OpenSession(1) in transaction 0, as libgphoto2 sends it.
    static let openSession: [UInt8] = [0x10, 0, 0, 0, 0x01, 0x00, 0x02, 0x10, 0, 0, 0, 0, 0x01, 0, 0, 0]

    @Test func aHostsCommandIsReadWithItsParameters() throws {
        let container = try PTPContainer.parse(Self.openSession).get()
        #expect(container.kind == .command && container.code == PTPOperation.openSession.rawValue)
        #expect(container.transactionID == 0 && container.parameters == [1])
        #expect(container.encoded() == Self.openSession, "written back byte for byte")
    }

    @Test func aResponseIsWrittenAsTheClassLaysItOut() {
        let response = PTPContainer(kind: .response, code: PTPResponseCode.ok.rawValue, transactionID: 7, parameters: [0x0001_0001, 2])
        #expect(response.encoded() == [0x14, 0, 0, 0, 0x03, 0x00, 0x01, 0x20, 7, 0, 0, 0, 1, 0, 1, 0, 2, 0, 0, 0])
    }

    @Test func bytesThatAreNotOneContainerAreRefusedWithTheReason() {
        #expect(PTPContainer.parse([0x0C, 0, 0]) == .failure(.tooShort))
        var longer = Self.openSession
        longer[0] = 0x20
        #expect(PTPContainer.parse(longer) == .failure(.lengthMismatch(declared: 0x20, received: 16)), "a length beyond the bytes")
        var tiny = Self.openSession
        tiny[0] = 4
        #expect(PTPContainer.parse(tiny) == .failure(.lengthMismatch(declared: 4, received: 16)), "a length below the header")
        var kind = Self.openSession
        kind[4] = 9
        #expect(PTPContainer.parse(kind) == .failure(.unknownKind(9)))
        let ragged: [UInt8] = [0x0E, 0, 0, 0, 1, 0, 0x02, 0x10, 0, 0, 0, 0, 1, 0]
        #expect(PTPContainer.parse(ragged) == .failure(.badParameters(bytes: 2)), "half a parameter")
        let six = PTPContainer(kind: .command, code: 0x1001, transactionID: 1, parameters: [1, 2, 3, 4, 5, 6]).encoded()
        #expect(PTPContainer.parse(six) == .failure(.badParameters(bytes: 24)), "more than five parameters")
        let data = PTPContainer(kind: .data, code: 0x1016, transactionID: 1, payload: [1, 2, 3]).encoded()
        #expect((try? PTPContainer.parse(data).get().payload) == [1, 2, 3], "a data phase's bytes are any length")
    }

    @Test func aDataPhaseOver4GiBDeclaresTheLengthUnknown() {
        let header = PTPContainer.header(kind: .data, code: 0x1009, transactionID: 3, payloadLength: 5 << 30)
        #expect(Array(header.prefix(4)) == [0xFF, 0xFF, 0xFF, 0xFF])
        let small = PTPContainer.header(kind: .data, code: 0x1009, transactionID: 3, payloadLength: 100)
        #expect(PTPContainer.Header(small).length == 112)
    }

    @Test func stringsAreCountedUCS2WithTheirTerminatingZero() throws {
        var writer = PTPDataWriter()
        writer.append(string: "Ré")
        writer.append(string: "")
        #expect(writer.bytes == [3, 0x52, 0, 0xE9, 0, 0, 0, 0])
        var reader = PTPDataReader(writer.bytes)
        #expect(try reader.string() == "Ré" && reader.string() == "" && reader.remaining == 0)
        var long = PTPDataWriter()
        long.append(string: String(repeating: "x", count: 400))
        #expect(long.bytes[0] == 255, "cut to PTP's 255 characters with the zero")
    }

    @Test func aReaderNeverReadsPastItsBytes() {
        var reader = PTPDataReader([2, 0, 0, 0, 1, 0])
        #expect(throws: PTPDataReader.Overrun.self) { try reader.uint16Array() }
        var huge = PTPDataReader([0xFF, 0xFF, 0xFF, 0xFF])
        #expect(throws: PTPDataReader.Overrun.self, "a count beyond the bytes is refused before reading") { try huge.uint32Array() }
        var string = PTPDataReader([5, 0x41, 0])
        #expect(throws: PTPDataReader.Overrun.self) { try string.string() }
    }

    @Test func theDeviceInfoReadsBackAsWritten() throws {
        let info = PTPDeviceInfo(operations: [0x1001, 0x1002], events: [0x4002], properties: [0x500F], captureFormats: [0x3801],
                                 imageFormats: [0x3801, 0x3811], manufacturer: "Reflex", model: "Reflex qemu-x86_64",
                                 deviceVersion: "0.1.0", serialNumber: "0123456789abcdef")
        let bytes = info.encoded()
        #expect(Array(bytes.prefix(8)) == [110, 0, 6, 0, 0, 0, 100, 0], "PTP 1.1 with Microsoft's MTP extension")
        #expect(try PTPDeviceInfo.decode(bytes) == info)
    }

    @Test func anObjectIsListedWithItsDCFNameFormatAndDate() throws {
        var info = PTPObjectInfo(storageID: 0x0001_0001, format: PTPObjectFormat(fileName: "RFLX0012.DNG"), isProtected: true,
                                 size: 25_000_000, parent: 3, fileName: "RFLX0012.DNG",
                                 captureDate: PTPObjectInfo.dateText(CivilDate(secondsSince1970: 1_795_943_107)),
                                 modificationDate: "")
        info.picture = (width: 4056, height: 3040, bitDepth: 16)
        var reader = PTPDataReader(info.encoded())
        // The dataset's fields in the standard's order and widths.
        let head = try [reader.uint32(), UInt32(reader.uint16()), UInt32(reader.uint16()), reader.uint32()]
        #expect(head == [0x0001_0001, UInt32(PTPObjectFormat.dng.rawValue), 1, 25_000_000], "its storage, format, protection, size")
        let thumbnail = try [UInt32(reader.uint16()), reader.uint32(), reader.uint32(), reader.uint32()]
        #expect(thumbnail == [0, 0, 0, 0], "no thumbnail said")
        let picture = try [reader.uint32(), reader.uint32(), reader.uint32(), reader.uint32()]
        #expect(picture == [4056, 3040, 16, 3], "its picture's size and depth, then its folder")
        let association = try [UInt32(reader.uint16()), reader.uint32(), reader.uint32()]
        #expect(association == [0, 0, 0])
        let texts = try [reader.string(), reader.string(), reader.string(), reader.string()]
        #expect(texts == ["RFLX0012.DNG", "20261129T090507", "", ""])
        #expect(reader.remaining == 0)
        #expect(PTPObjectFormat(fileName: "RFLX0013.JPG") == .exifJPEG && PTPObjectFormat(fileName: "RFLX0014.MP4") == .mp4)
        // Read back as a host reads it (`reflex bench usb`): what it needs to find a file.
        let read = try PTPObjectInfo.decode(info.encoded())
        #expect(read.storageID == info.storageID && read.format == .dng && read.isProtected && read.size == 25_000_000)
        #expect(read.parent == 3 && read.fileName == "RFLX0012.DNG" && read.captureDate == "20261129T090507")
    }
}
