/// Reads a frame's exposure from the sensor's embedded data: the register dump a CCS (SMIA)
/// sensor such as the IMX477 or IMX708 sends in the lines before its picture, which is the
/// only account of what each frame really had (a control set now reaches a frame some frames
/// later, and the driver clamps it). Reads in place: no allocation, as it runs each frame.
public struct EmbeddedDataReader: Sendable, Equatable {
    /// The register holding the exposure in lines.
    public let exposure: SensorRegister
    /// The register holding the analogue gain code.
    public let gain: SensorRegister
    public let packing: EmbeddedDataPacking
    /// Bytes from one line's start to the next's (a packed image line's length); nil: the
    /// next line is found by its line-start byte after the previous line's end.
    public let lineLength: Int?

    public init(exposure: SensorRegister = .ccsCoarseIntegrationTime, gain: SensorRegister = .ccsAnalogueGain,
                packing: EmbeddedDataPacking, lineLength: Int?) {
        self.exposure = exposure
        self.gain = gain
        self.packing = packing
        self.lineLength = lineLength.flatMap { $0 > 0 ? $0 : nil }
    }

    /// Why a frame's embedded data gave no exposure.
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// The data does not start as CCS register data does (0x0A).
        case noLineStart(offset: Int)
        /// A byte where a tag should be that is none.
        case badTag(UInt8, offset: Int)
        /// A packed line's padding byte that is not 0x55: the packing is not the sensor's.
        case badPadding(offset: Int)
        /// The data ended before both registers were seen.
        case registersMissing

        public var description: String {
            switch self {
            case .noLineStart(let offset): "no line start (0x0A) at byte \(offset)"
            case .badTag(let byte, let offset): "byte \(offset) is 0x\(String(byte, radix: 16)), not a tag"
            case .badPadding(let offset): "padding byte \(offset) is not 0x55 (another packing?)"
            case .registersMissing: "the exposure and gain registers are not in it"
            }
        }
    }

    public func read(_ data: UnsafeRawBufferPointer) -> Result<EmbeddedExposure, Problem> {
        guard !data.isEmpty, data[0] == EmbeddedDataTag.lineStart else { return .failure(.noLineStart(offset: 0)) }
        var cursor = Cursor(data: data, packing: packing)
        var address: UInt16 = 0
        var exposureValue = 0
        var gainValue = 0
        // A bit for each register byte seen: exposure's from bit 0, gain's from bit 2.
        var seen = 0
        let wanted = (1 << exposure.byteCount - 1) | (1 << gain.byteCount - 1) << 2
        while true {
            let tag: UInt8
            let value: UInt8
            switch cursor.next() {
            case .byte(let byte): tag = byte
            case .end: return .failure(.registersMissing)
            case .badPadding(let offset): return .failure(.badPadding(offset: offset))
            }
            switch cursor.next() {
            case .byte(let byte): value = byte
            case .end: return .failure(.registersMissing)
            case .badPadding(let offset): return .failure(.badPadding(offset: offset))
            }
            switch tag {
            case EmbeddedDataTag.addressHigh: address = (address & 0x00FF) | UInt16(value) << 8
            case EmbeddedDataTag.addressLow: address = (address & 0xFF00) | UInt16(value)
            case EmbeddedDataTag.skip: address &+= 1
            case EmbeddedDataTag.value:
                if let index = exposure.byteIndex(of: address) {
                    exposureValue |= Int(value) << (8 * (exposure.byteCount - 1 - index))
                    seen |= 1 << index
                }
                if let index = gain.byteIndex(of: address) {
                    gainValue |= Int(value) << (8 * (gain.byteCount - 1 - index))
                    seen |= 1 << (index + 2)
                }
                if seen == wanted { return .success(EmbeddedExposure(lines: exposureValue, gainCode: gainValue)) }
                address &+= 1
            case EmbeddedDataTag.lineEnd where value == EmbeddedDataTag.lineEnd:
                if let problem = cursor.nextLine(lineLength: lineLength) { return .failure(problem) }
            default:
                return .failure(.badTag(tag, offset: cursor.offset - 2))
            }
        }
    }

    /// Where the reading is: the data bytes of the lines in order, padding passed over.
    private struct Cursor {
        let data: UnsafeRawBufferPointer
        let packing: EmbeddedDataPacking
        var lineStart = 0
        /// The next byte to read (past the first line's start byte).
        var offset = 1

        enum Step { case byte(UInt8), end, badPadding(Int) }

        mutating func next() -> Step {
            while offset < data.count && packing.isPadding(atLineOffset: offset - lineStart) {
                guard data[offset] == EmbeddedDataTag.skip else { return .badPadding(offset) }
                offset += 1
            }
            guard offset < data.count else { return .end }
            offset += 1
            return .byte(data[offset - 1])
        }

        /// Moves to the next line's first data byte; nil when there, else why not (no next
        /// line of register data: the registers were not in the lines there were).
        mutating func nextLine(lineLength: Int?) -> Problem? {
            if let lineLength {
                lineStart += lineLength
            } else {
                lineStart = offset
                while lineStart < data.count && data[lineStart] != EmbeddedDataTag.lineStart { lineStart += 1 }
            }
            // (Lines after the register data's last are filler: no line start.)
            guard lineStart < data.count, data[lineStart] == EmbeddedDataTag.lineStart else { return .registersMissing }
            offset = lineStart + 1
            return nil
        }
    }
}
