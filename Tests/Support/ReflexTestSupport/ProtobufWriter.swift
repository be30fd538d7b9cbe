/// Protocol Buffers' wire format, as far as a test needs to write a small ONNX model by hand
/// (no protobuf library here): varints, 32-bit floats, and length-delimited fields, whose
/// contents are another writer's bytes.
public struct ProtobufWriter {
    public private(set) var bytes: [UInt8] = []

    public init() {}

    public mutating func varint(_ field: Int, _ value: Int64) {
        key(field, wireType: 0)
        writeVarint(UInt64(bitPattern: value))
    }

    public mutating func float(_ field: Int, _ value: Float) {
        key(field, wireType: 5)
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes += $0 }
    }

    public mutating func bytes(_ field: Int, _ value: [UInt8]) {
        key(field, wireType: 2)
        writeVarint(UInt64(value.count))
        bytes += value
    }

    public mutating func string(_ field: Int, _ value: String) { bytes(field, Array(value.utf8)) }

    /// A nested message: `build` writes its fields.
    public mutating func message(_ field: Int, _ build: (inout ProtobufWriter) -> Void) {
        var nested = ProtobufWriter()
        build(&nested)
        bytes(field, nested.bytes)
    }

    private mutating func key(_ field: Int, wireType: UInt64) { writeVarint(UInt64(field) << 3 | wireType) }

    private mutating func writeVarint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }
}
