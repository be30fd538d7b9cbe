import ReflexCore
import Testing

/// A CCS sensor's embedded data, as the IMX477 and IMX708 send it in the lines before each
/// picture: tagged register bytes, packed as the picture's lines are.
@Suite struct EmbeddedDataReaderTests {
    /// A RAW10-packed line laid out byte by byte as the CCS format has it (not by our writer):
    /// the line start, address 0x0202, four values, the line end. Every fifth byte is the
    /// packing's padding (0x55), which falls between a tag and its byte.
    static let raw10Line: [UInt8] = [
        0x0A, 0xAA, 0x02, 0xA5, 0x55,   // line start; address high 0x02; tag for the low byte; pad
        0x02, 0x5A, 0x03, 0x5A, 0x55,   // address low 0x02; 0x0202 = 0x03; tag; pad
        0xE8, 0x5A, 0x01, 0x5A, 0x55,   // 0x0203 = 0xE8; 0x0204 = 0x01; tag; pad
        0x00, 0x07, 0x07, 0x07, 0x55,   // 0x0205 = 0x00; line end; filler
    ]

    @Test func aHandLaidRAW10LineGivesItsExposureAndGain() {
        let reading = Self.raw10Line.withUnsafeBytes {
            EmbeddedDataReader(packing: .raw10, lineLength: Self.raw10Line.count).read($0)
        }
        #expect(reading == .success(EmbeddedExposure(lines: 1000, gainCode: 256)))
    }

    @Test func thePackingFollowsTheModesBitDepth() {
        #expect(EmbeddedDataPacking(bitsPerSample: 10) == .raw10)
        #expect(EmbeddedDataPacking(bitsPerSample: 12) == .raw12)
        #expect(EmbeddedDataPacking(bitsPerSample: 14) == .raw14)
        #expect(EmbeddedDataPacking(bitsPerSample: 8) == .eightBit)
        #expect(EmbeddedDataPacking(bitsPerSample: 16) == .eightBit)
        // RAW12: two bytes, a pad; RAW14: four bytes, three pads.
        #expect((0..<6).map { EmbeddedDataPacking.raw12.isPadding(atLineOffset: $0) } == [false, false, true, false, false, true])
        #expect((0..<7).filter { EmbeddedDataPacking.raw14.isPadding(atLineOffset: $0) } == [4, 5, 6])
    }

    /// What the writer lays out, the reader reads, in every packing, with the registers
    /// split over two lines (a line too short for them all) and a gap skipped before them.
    @Test(arguments: [EmbeddedDataPacking.eightBit, .raw10, .raw12, .raw14])
    func writtenRegistersReadBackInEveryPacking(_ packing: EmbeddedDataPacking) {
        let lineLength = 64
        var bytes = [UInt8](repeating: 0, count: lineLength * 4)
        bytes.withUnsafeMutableBytes { buffer in
            var writer = EmbeddedDataWriter(into: buffer, packing: packing, lineLength: lineLength)
            writer.seek(to: 0x0100)
            for value in 0..<20 { writer.value(UInt8(value)) }   // registers the camera does not want
            writer.seek(to: 0x0200)
            writer.skip()
            writer.skip()
            for value: UInt8 in [0x12, 0x34, 0x03, 0x80] { writer.value(value) }
            writer.finish()
            #expect(writer.fitted)
        }
        // The registers did not fit the first line.
        #expect(bytes[lineLength] == EmbeddedDataTag.lineStart)
        for declared in [lineLength, nil] {
            let reading = bytes.withUnsafeBytes { EmbeddedDataReader(packing: packing, lineLength: declared).read($0) }
            #expect(reading == .success(EmbeddedExposure(lines: 0x1234, gainCode: 0x0380)), "line length \(String(describing: declared))")
        }
    }

    /// The IMX219's registers are not CCS's: exposure at 0x015A (16 bits), gain at 0x0157
    /// (8 bits), as sensor.conf can say.
    @Test func anEightBitGainRegisterElsewhere() {
        var bytes = [UInt8](repeating: 0, count: 64)
        bytes.withUnsafeMutableBytes { buffer in
            var writer = EmbeddedDataWriter(into: buffer, packing: .raw10, lineLength: 64)
            writer.seek(to: 0x0157)
            writer.value(0xC0)
            writer.seek(to: 0x015A)
            writer.value(0x06)
            writer.value(0x40)
            writer.finish()
        }
        let reader = EmbeddedDataReader(exposure: SensorRegister(parsing: "0x015A")!, gain: SensorRegister(parsing: "0x0157/8")!,
                                        packing: .raw10, lineLength: 64)
        #expect(bytes.withUnsafeBytes { reader.read($0) } == .success(EmbeddedExposure(lines: 1600, gainCode: 0xC0)))
    }

    @Test func whatIsNotEmbeddedDataIsSaidSo() {
        // A picture's bytes, not register data.
        let picture = [UInt8](repeating: 0x40, count: 40)
        #expect(picture.withUnsafeBytes { EmbeddedDataReader(packing: .raw10, lineLength: 40).read($0) }
                == .failure(.noLineStart(offset: 0)))
        #expect([UInt8]().withUnsafeBytes { EmbeddedDataReader(packing: .raw10, lineLength: nil).read($0) }
                == .failure(.noLineStart(offset: 0)))
        // RAW10 data read as RAW12: byte 2 is no padding byte.
        let wrongPacking = Self.raw10Line.withUnsafeBytes { EmbeddedDataReader(packing: .raw12, lineLength: 20).read($0) }
        #expect(wrongPacking == .failure(.badPadding(offset: 2)))
        // Read without its padding, the pad is taken for a tag.
        let unpacked = Self.raw10Line.withUnsafeBytes { EmbeddedDataReader(packing: .eightBit, lineLength: 20).read($0) }
        #expect(unpacked == .failure(.badTag(0x02, offset: 5)))
    }

    @Test func registersTheDataDoesNotHoldAreMissing() {
        // Only the exposure's bytes, then the end; and the same line cut short.
        let reader = EmbeddedDataReader(packing: .raw10, lineLength: nil)
        let exposureOnly = Array(Self.raw10Line[0..<11]) + [0x07, 0x07, 0x07, 0x55]
        #expect(exposureOnly.withUnsafeBytes { reader.read($0) } == .failure(.registersMissing))
        let cut = Array(Self.raw10Line[0..<12])
        #expect(cut.withUnsafeBytes { reader.read($0) } == .failure(.registersMissing))
        // Other registers asked for than the data has.
        let elsewhere = EmbeddedDataReader(exposure: SensorRegister(parsing: "0x0340")!, packing: .raw10, lineLength: 20)
        #expect(Self.raw10Line.withUnsafeBytes { elsewhere.read($0) } == .failure(.registersMissing))
    }

    @Test func sensorConfWritesARegisterAsAnAddressAndAWidth() {
        #expect(SensorRegister(parsing: "0x0202") == .ccsCoarseIntegrationTime)
        #expect(SensorRegister(parsing: " 0x0204 ") == .ccsAnalogueGain)
        #expect(SensorRegister(parsing: "0x0157/8") == SensorRegister(address: 0x0157, byteCount: 1))
        #expect(SensorRegister(parsing: "0x0157/8")?.description == "0x0157/8")
        #expect(SensorRegister.ccsCoarseIntegrationTime.description == "0x0202")
        for bad in ["0202", "0x", "0x10000", "0x0202/12", "0x0202/", "0xFFFF", "register"] {
            #expect(SensorRegister(parsing: bad) == nil, "\(bad)")
        }
    }
}
