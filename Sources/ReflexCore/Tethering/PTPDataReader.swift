/// PTP's data types read back from bytes (`PTPDataWriter`'s counterpart), every read checked
/// against the bytes there are: a host's data phase can say anything.
public struct PTPDataReader: Sendable {
    public struct Overrun: Error, Sendable, Equatable {}

    private let bytes: [UInt8]
    public private(set) var offset = 0

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public var remaining: Int { bytes.count - offset }

    public mutating func uint8() throws(Overrun) -> UInt8 {
        guard remaining >= 1 else { throw Overrun() }
        defer { offset += 1 }
        return bytes[offset]
    }

    public mutating func uint16() throws(Overrun) -> UInt16 {
        UInt16(try little(2))
    }

    public mutating func uint32() throws(Overrun) -> UInt32 {
        UInt32(try little(4))
    }

    public mutating func uint64() throws(Overrun) -> UInt64 {
        try little(8)
    }

    public mutating func string() throws(Overrun) -> String {
        let count = Int(try uint8())
        guard count > 0 else { return "" }
        var units: [UInt16] = []
        for _ in 0..<count { units.append(try uint16()) }
        if units.last == 0 { units.removeLast() }
        return String(decoding: units, as: UTF16.self)
    }

    public mutating func uint16Array() throws(Overrun) -> [UInt16] {
        let count = Int(try uint32())
        guard count <= remaining / 2 else { throw Overrun() }
        var elements: [UInt16] = []
        for _ in 0..<count { elements.append(try uint16()) }
        return elements
    }

    public mutating func uint32Array() throws(Overrun) -> [UInt32] {
        let count = Int(try uint32())
        guard count <= remaining / 4 else { throw Overrun() }
        var elements: [UInt32] = []
        for _ in 0..<count { elements.append(try uint32()) }
        return elements
    }

    private mutating func little(_ count: Int) throws(Overrun) -> UInt64 {
        guard remaining >= count else { throw Overrun() }
        var value: UInt64 = 0
        for index in (0..<count).reversed() { value = value << 8 | UInt64(bytes[offset + index]) }
        offset += count
        return value
    }
}
