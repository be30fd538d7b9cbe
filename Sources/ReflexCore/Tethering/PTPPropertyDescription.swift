/// The DevicePropDesc dataset (ISO 15740 §5.5.5): one setting as a host shows it — its type,
/// whether the host may set it, its factory default and current value, and the values it
/// takes (an enumeration or a range). Every value Reflex describes is an integer.
public struct PTPPropertyDescription: Sendable, Equatable {
    /// The integer types of §5.3 the camera's properties use.
    public enum DataType: UInt16, Sendable {
        case int8 = 0x0001, uint8 = 0x0002, int16 = 0x0003, uint16 = 0x0004, int32 = 0x0005, uint32 = 0x0006

        var byteCount: Int {
            switch self {
            case .int8, .uint8: 1
            case .int16, .uint16: 2
            case .int32, .uint32: 4
            }
        }

        /// `value` as this type's bytes (truncated to its width).
        func append(_ value: Int64, to writer: inout PTPDataWriter) {
            switch byteCount {
            case 1: writer.append(UInt8(truncatingIfNeeded: value))
            case 2: writer.append(UInt16(truncatingIfNeeded: value))
            default: writer.append(UInt32(truncatingIfNeeded: value))
            }
        }

        /// A host's value for this type: exactly its width, sign-extended where signed.
        public func read(_ bytes: [UInt8]) -> Int64? {
            guard bytes.count == byteCount else { return nil }
            var reader = PTPDataReader(bytes)
            switch self {
            case .int8: return (try? reader.uint8()).map { Int64(Int8(bitPattern: $0)) }
            case .uint8: return (try? reader.uint8()).map { Int64($0) }
            case .int16: return (try? reader.uint16()).map { Int64(Int16(bitPattern: $0)) }
            case .uint16: return (try? reader.uint16()).map { Int64($0) }
            case .int32: return (try? reader.uint32()).map { Int64(Int32(bitPattern: $0)) }
            case .uint32: return (try? reader.uint32()).map { Int64($0) }
            }
        }
    }

    public enum Form: Sendable, Equatable {
        case none
        case range(minimum: Int64, maximum: Int64, step: Int64)
        case enumeration([Int64])
    }

    public var property: PTPDeviceProperty
    public var type: DataType
    public var settable: Bool
    public var factoryDefault: Int64
    public var current: Int64
    public var form: Form

    public init(property: PTPDeviceProperty, type: DataType, settable: Bool, factoryDefault: Int64, current: Int64, form: Form) {
        (self.property, self.type, self.settable) = (property, type, settable)
        (self.factoryDefault, self.current, self.form) = (factoryDefault, current, form)
    }

    public func encoded() -> [UInt8] {
        var writer = PTPDataWriter()
        writer.append(property.rawValue)
        writer.append(type.rawValue)
        writer.append(UInt8(settable ? 1 : 0))
        type.append(factoryDefault, to: &writer)
        type.append(current, to: &writer)
        switch form {
        case .none:
            writer.append(UInt8(0))
        case .range(let minimum, let maximum, let step):
            writer.append(UInt8(1))
            for value in [minimum, maximum, step] { type.append(value, to: &writer) }
        case .enumeration(let values):
            writer.append(UInt8(2))
            writer.append(UInt16(values.count))
            for value in values { type.append(value, to: &writer) }
        }
        return writer.bytes
    }

    /// The current value alone (GetDevicePropValue's data).
    public func encodedValue() -> [UInt8] {
        var writer = PTPDataWriter()
        type.append(current, to: &writer)
        return writer.bytes
    }

    /// Whether a host's `value` is one this property takes.
    public func allows(_ value: Int64) -> Bool {
        switch form {
        case .none: true
        case .range(let minimum, let maximum, let step):
            value >= minimum && value <= maximum && (step <= 0 || (value - minimum) % step == 0)
        case .enumeration(let values): values.contains(value)
        }
    }
}
