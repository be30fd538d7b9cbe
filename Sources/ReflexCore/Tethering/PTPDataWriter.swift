/// PTP's data types as bytes (ISO 15740 §5.3): integers little-endian; a string as a count
/// of UCS-2 characters with its terminating zero (0 for an empty string), then the
/// characters; an array as a 32-bit count, then its elements.
public struct PTPDataWriter: Sendable {
    public private(set) var bytes: [UInt8] = []

    /// Strings are cut to PTP's 255 characters, the terminating zero included.
    public static let longestString = 254

    public init() {}

    public mutating func append(_ value: UInt8) { bytes.append(value) }

    public mutating func append(_ value: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
    }

    public mutating func append(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    public mutating func append(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    public mutating func append(_ value: Int16) { append(UInt16(bitPattern: value)) }

    public mutating func append(string: String) {
        // UTF-16 code units are PTP's UCS-2 for every character a camera names things with.
        let units = Array(string.utf16.prefix(Self.longestString))
        guard !units.isEmpty else {
            append(UInt8(0))
            return
        }
        append(UInt8(units.count + 1))
        for unit in units { append(unit) }
        append(UInt16(0))
    }

    public mutating func append(array: [UInt16]) {
        append(UInt32(array.count))
        for element in array { append(element) }
    }

    public mutating func append(array: [UInt32]) {
        append(UInt32(array.count))
        for element in array { append(element) }
    }

    public mutating func append(bytes more: [UInt8]) { bytes += more }
}
