/// Writes register data as a CCS (SMIA) sensor sends it in its embedded-data lines: what the
/// simulated sensor puts beside each frame, so that the camera reads its exposure the way it
/// reads a real sensor's. Writes in place into lines of `lineLength` bytes, with the packing's
/// padding bytes (0x55); a line that is full is ended and the next begun.
public struct EmbeddedDataWriter {
    private let buffer: UnsafeMutableRawBufferPointer
    private let packing: EmbeddedDataPacking
    private let lineLength: Int
    private var lineStart = 0
    private var offset = 0
    /// The address the next value goes to (set again at the top of a new line).
    private var address: UInt16 = 0
    /// False once the buffer had no room for something written.
    public private(set) var fitted = true

    /// Begins the first line in `buffer`, which holds whole lines of `lineLength` bytes.
    public init(into buffer: UnsafeMutableRawBufferPointer, packing: EmbeddedDataPacking, lineLength: Int) {
        self.buffer = buffer
        self.packing = packing
        self.lineLength = max(lineLength, 8)
        fitted = beginLine()
    }

    /// The next values go to `address` onwards.
    public mutating func seek(to address: UInt16) {
        self.address = address
        writeAddress()
    }

    /// The value of the register at the current address; the address moves on.
    public mutating func value(_ byte: UInt8) {
        guard roomForPair() else { return }
        pair(EmbeddedDataTag.value, byte)
        address &+= 1
    }

    /// No value for the current address (the sensor dumps a run with a gap in it).
    public mutating func skip() {
        guard roomForPair() else { return }
        pair(EmbeddedDataTag.skip, 0)
        address &+= 1
    }

    /// Ends the register data: the line-end pair, then filler to the end of every line left.
    public mutating func finish() {
        endLine()
        while offset < buffer.count {
            buffer[offset] = EmbeddedDataTag.lineEnd
            offset += 1
        }
    }

    // MARK: bytes

    private mutating func writeAddress() {
        switch room(forPairs: 2) {
        case .full, .newLine: return   // (a new line begins with the address)
        case .inThisLine:
            pair(EmbeddedDataTag.addressHigh, UInt8(address >> 8))
            pair(EmbeddedDataTag.addressLow, UInt8(address & 0xFF))
        }
    }

    private mutating func roomForPair() -> Bool { room(forPairs: 1) != .full }

    private enum Room { case inThisLine, newLine, full }

    /// Room for `pairs` more pairs and the line-end pair after them: in this line, or else in
    /// a new one, begun here with the address at its top; or none (nothing more is written).
    private mutating func room(forPairs pairs: Int) -> Room {
        guard fitted else { return .full }
        if fits(pairs) { return .inThisLine }
        endLine()
        guard beginLine(), fits(pairs + 2) else {
            fitted = false
            return .full
        }
        pair(EmbeddedDataTag.addressHigh, UInt8(address >> 8))
        pair(EmbeddedDataTag.addressLow, UInt8(address & 0xFF))
        return .newLine
    }

    /// Whether `pairs` pairs and a line end fit in this line: each data byte may have
    /// padding before it, at most 3 bytes of it (RAW14).
    private func fits(_ pairs: Int) -> Bool { offset + (pairs + 1) * 2 * 4 <= lineStart + lineLength }

    private mutating func beginLine() -> Bool {
        guard lineStart + lineLength <= buffer.count else { return false }
        buffer[lineStart] = EmbeddedDataTag.lineStart
        offset = lineStart + 1
        return true
    }

    /// The line-end pair, filler to the line's end, and the next line's start offset.
    private mutating func endLine() {
        guard offset < lineStart + lineLength, lineStart + lineLength <= buffer.count else { return }
        pair(EmbeddedDataTag.lineEnd, EmbeddedDataTag.lineEnd)
        while offset < lineStart + lineLength {
            buffer[offset] = packing.isPadding(atLineOffset: offset - lineStart) ? EmbeddedDataTag.skip : EmbeddedDataTag.lineEnd
            offset += 1
        }
        lineStart += lineLength
    }

    private mutating func pair(_ tag: UInt8, _ byte: UInt8) {
        put(tag)
        put(byte)
    }

    private mutating func put(_ byte: UInt8) {
        while packing.isPadding(atLineOffset: offset - lineStart) {
            buffer[offset] = EmbeddedDataTag.skip
            offset += 1
        }
        buffer[offset] = byte
        offset += 1
    }
}
