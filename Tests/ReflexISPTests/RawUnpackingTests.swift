import Testing
@testable import ReflexISP

@Suite("Raw formats and unpacking")
struct RawUnpackingTests {
    func unpack(_ bytes: [UInt8], _ packing: RawPacking, first: Int = 0, count: Int) -> [UInt16] {
        var output = [UInt16](repeating: 0xFFFF, count: count)
        bytes.withUnsafeBytes { raw in
            output.withUnsafeMutableBufferPointer { out in
                RawUnpacking.unpack(row: raw.baseAddress!, packing: packing, first: first, count: count, into: out.baseAddress!)
            }
        }
        return output
    }

    @Test func eightBitSamplesAreTheBytes() {
        #expect(unpack([0, 1, 127, 255], .bits8, count: 4) == [0, 1, 127, 255])
        #expect(unpack([0, 1, 127, 255], .bits8, first: 2, count: 2) == [127, 255])
    }

    @Test func sixteenBitSamplesAreLittleEndian() {
        // 0x03FF (10-bit white), 0x0040 (black 64), 0x0FFF (12-bit white), 0xABCD.
        #expect(unpack([0xFF, 0x03, 0x40, 0x00, 0xFF, 0x0F, 0xCD, 0xAB], .unpacked16, count: 4) == [1023, 64, 4095, 0xABCD])
        #expect(unpack([0xFF, 0x03, 0x40, 0x00, 0xFF, 0x0F], .unpacked16, first: 1, count: 2) == [64, 4095])
    }

    @Test func csi2Raw10PacksFourSamplesInFiveBytes() {
        // Samples 1023, 64, 513, 2: high bytes 0xFF 0x10 0x80 0x00; low bits 11, 00, 01, 10
        // → the fifth byte is 0b10_01_00_11 = 0x93.
        let group: [UInt8] = [0xFF, 0x10, 0x80, 0x00, 0x93]
        #expect(unpack(group, .csi2Packed10, count: 4) == [1023, 64, 513, 2])
        // A second group, and a row that ends inside a group.
        let two = group + [0x01, 0x02, 0x03, 0x04, 0b11_10_01_00]
        #expect(unpack(two, .csi2Packed10, count: 8) == [1023, 64, 513, 2, 4, 9, 14, 19])
        #expect(unpack(two, .csi2Packed10, count: 6) == [1023, 64, 513, 2, 4, 9])
        #expect(unpack(two, .csi2Packed10, first: 4, count: 3) == [4, 9, 14])
    }

    /// Long rows go eight samples a step in SIMD, then group by group, then sample by sample:
    /// every way in and out of those steps against the packing's definition.
    @Test func csi2Raw10RowsOfAnyLengthUnpackAsTheirGroupsSay() {
        var state: UInt32 = 7
        let bytes: [UInt8] = (0..<60).map { _ in state = state &* 1_103_515_245 &+ 12345; return UInt8(state >> 24) }
        func sample(_ i: Int) -> UInt16 {
            let group = i / 4 * 5, lane = i % 4
            return UInt16(bytes[group + lane]) << 2 | UInt16(bytes[group + 4]) >> (2 * lane) & 3
        }
        for first in [0, 4, 8, 12] {
            for count in [1, 3, 4, 7, 8, 9, 12, 15, 16, 17, 23, 24, 31] where first + count <= 48 {
                #expect(unpack(bytes, .csi2Packed10, first: first, count: count) == (first..<first + count).map(sample),
                        "first \(first), count \(count)")
            }
        }
    }

    /// One sample read where it lies is the same sample the row's unpacking gives, in every
    /// packing and at every place in its group.
    @Test(arguments: [RawPacking.bits8, .unpacked16, .csi2Packed10, .csi2Packed12])
    func aSampleReadAloneIsTheUnpackedSample(packing: RawPacking) {
        var state: UInt32 = 99
        let bytes: [UInt8] = (0..<80).map { _ in state = state &* 1_103_515_245 &+ 12345; return UInt8(state >> 24) }
        let unpacked = unpack(bytes, packing, count: 24)
        let alone = bytes.withUnsafeBytes { raw in (0..<24).map { RawUnpacking.sample(raw.baseAddress!, packing: packing, at: $0) } }
        #expect(alone == unpacked)
    }

    @Test func csi2Raw12PacksTwoSamplesInThreeBytes() {
        // Samples 4095 and 0x123: high bytes 0xFF, 0x12; low nibbles F (first) and 3 (second) → 0x3F.
        let group: [UInt8] = [0xFF, 0x12, 0x3F]
        #expect(unpack(group, .csi2Packed12, count: 2) == [4095, 0x123])
        #expect(unpack(group + [0x80, 0x00, 0x0A], .csi2Packed12, count: 3) == [4095, 0x123, 0x80A])
        #expect(unpack(group + [0x80, 0x00, 0x0A], .csi2Packed12, first: 2, count: 2) == [0x80A, 0x000])
    }

    @Test func rowSizes() {
        #expect(RawPacking.csi2Packed10.minimumBytesPerLine(width: 1920) == 2400)
        #expect(RawPacking.csi2Packed12.minimumBytesPerLine(width: 1920) == 2880)
        #expect(RawPacking.unpacked16.minimumBytesPerLine(width: 1920) == 3840)
        #expect(RawPacking.csi2Packed10.minimumBytesPerLine(width: 6) == 10)
    }

    @Test func everyV4L2BayerFourCCMapsToItsFormat() {
        func code(_ text: String) -> UInt32 { text.utf8.enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) } }
        let expected: [(String, CFAPattern, Int, RawPacking)] = [
            ("RGGB", .rggb, 8, .bits8), ("GRBG", .grbg, 8, .bits8), ("GBRG", .gbrg, 8, .bits8), ("BA81", .bggr, 8, .bits8),
            ("RG10", .rggb, 10, .unpacked16), ("BA10", .grbg, 10, .unpacked16), ("GB10", .gbrg, 10, .unpacked16),
            ("BG10", .bggr, 10, .unpacked16), ("RG12", .rggb, 12, .unpacked16), ("BA12", .grbg, 12, .unpacked16),
            ("GB12", .gbrg, 12, .unpacked16), ("BG12", .bggr, 12, .unpacked16), ("RG16", .rggb, 16, .unpacked16),
            ("GR16", .grbg, 16, .unpacked16), ("GB16", .gbrg, 16, .unpacked16), ("BYR2", .bggr, 16, .unpacked16),
            ("pRAA", .rggb, 10, .csi2Packed10), ("pgAA", .grbg, 10, .csi2Packed10), ("pGAA", .gbrg, 10, .csi2Packed10),
            ("pBAA", .bggr, 10, .csi2Packed10), ("pRCC", .rggb, 12, .csi2Packed12), ("pgCC", .grbg, 12, .csi2Packed12),
            ("pGCC", .gbrg, 12, .csi2Packed12), ("pBCC", .bggr, 12, .csi2Packed12),
        ]
        for (fourCC, cfa, bits, packing) in expected {
            #expect(RawFormat(v4l2FourCC: code(fourCC)) == RawFormat(cfa: cfa, bitsPerSample: bits, packing: packing), "\(fourCC)")
        }
        #expect(RawFormat(v4l2FourCC: code("YUYV")) == nil)
    }
}
