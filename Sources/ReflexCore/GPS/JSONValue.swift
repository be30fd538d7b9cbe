/// A JSON value, parsed from one line of text: enough of JSON (RFC 8259) to read gpsd's
/// reports without Foundation. Numbers are Doubles; a malformed line is nil, never a guess.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The value `text` holds (white space around it allowed), nil when it is not JSON.
    public static func parse(_ text: String) -> JSONValue? {
        var reader = Reader(bytes: Array(text.utf8))
        guard let value = reader.value(depth: 0) else { return nil }
        reader.skipSpace()
        return reader.atEnd ? value : nil
    }

    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    public var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var array: [JSONValue]? {
        if case .array(let values) = self { return values }
        return nil
    }

    /// A recursive-descent reader over the line's bytes.
    private struct Reader {
        let bytes: [UInt8]
        var at = 0
        /// Deeper nesting than any report has is refused (no stack overflow on hostile input).
        static let maximumDepth = 32

        var atEnd: Bool { at >= bytes.count }

        mutating func skipSpace() {
            while at < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[at]) { at += 1 }
        }

        mutating func value(depth: Int) -> JSONValue? {
            guard depth < Reader.maximumDepth else { return nil }
            skipSpace()
            guard at < bytes.count else { return nil }
            switch bytes[at] {
            case UInt8(ascii: "{"): return object(depth: depth)
            case UInt8(ascii: "["): return array(depth: depth)
            case UInt8(ascii: "\""): return string().map { .string($0) }
            case UInt8(ascii: "t"): return literal("true", .bool(true))
            case UInt8(ascii: "f"): return literal("false", .bool(false))
            case UInt8(ascii: "n"): return literal("null", .null)
            default: return number()
            }
        }

        private mutating func literal(_ word: String, _ value: JSONValue) -> JSONValue? {
            let expected = Array(word.utf8)
            guard at + expected.count <= bytes.count, Array(bytes[at..<at + expected.count]) == expected else { return nil }
            at += expected.count
            return value
        }

        private mutating func object(depth: Int) -> JSONValue? {
            at += 1
            var members: [String: JSONValue] = [:]
            skipSpace()
            if at < bytes.count, bytes[at] == UInt8(ascii: "}") { at += 1; return .object(members) }
            while true {
                skipSpace()
                guard at < bytes.count, bytes[at] == UInt8(ascii: "\""), let key = string() else { return nil }
                skipSpace()
                guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { return nil }
                at += 1
                guard let member = value(depth: depth + 1) else { return nil }
                members[key] = member
                skipSpace()
                guard at < bytes.count else { return nil }
                if bytes[at] == UInt8(ascii: ",") { at += 1; continue }
                guard bytes[at] == UInt8(ascii: "}") else { return nil }
                at += 1
                return .object(members)
            }
        }

        private mutating func array(depth: Int) -> JSONValue? {
            at += 1
            var values: [JSONValue] = []
            skipSpace()
            if at < bytes.count, bytes[at] == UInt8(ascii: "]") { at += 1; return .array(values) }
            while true {
                guard let element = value(depth: depth + 1) else { return nil }
                values.append(element)
                skipSpace()
                guard at < bytes.count else { return nil }
                if bytes[at] == UInt8(ascii: ",") { at += 1; continue }
                guard bytes[at] == UInt8(ascii: "]") else { return nil }
                at += 1
                return .array(values)
            }
        }

        /// A string at `at` (its opening quote), escapes resolved.
        private mutating func string() -> String? {
            at += 1
            var scalars = String.UnicodeScalarView()
            var run: [UInt8] = []  // unescaped bytes, decoded as UTF-8 together
            func flush() {
                if !run.isEmpty { scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars) }
                run.removeAll(keepingCapacity: true)
            }
            while at < bytes.count {
                let byte = bytes[at]
                at += 1
                switch byte {
                case UInt8(ascii: "\""):
                    flush()
                    return String(scalars)
                case UInt8(ascii: "\\"):
                    flush()
                    guard at < bytes.count else { return nil }
                    let escape = bytes[at]
                    at += 1
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(Unicode.Scalar(escape))
                    case UInt8(ascii: "b"): scalars.append("\u{08}")
                    case UInt8(ascii: "f"): scalars.append("\u{0C}")
                    case UInt8(ascii: "n"): scalars.append("\n")
                    case UInt8(ascii: "r"): scalars.append("\r")
                    case UInt8(ascii: "t"): scalars.append("\t")
                    case UInt8(ascii: "u"):
                        guard let code = hex4() else { return nil }
                        // A lone or paired surrogate: gpsd never sends one; it stands as U+FFFD.
                        scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                    default: return nil
                    }
                case 0..<0x20:
                    return nil  // control characters must be escaped
                default:
                    run.append(byte)
                }
            }
            return nil
        }

        private mutating func hex4() -> UInt32? {
            guard at + 4 <= bytes.count else { return nil }
            var code: UInt32 = 0
            for byte in bytes[at..<at + 4] {
                guard let digit = Character(Unicode.Scalar(byte)).hexDigitValue else { return nil }
                code = code * 16 + UInt32(digit)
            }
            at += 4
            return code
        }

        private mutating func number() -> JSONValue? {
            let start = at
            if at < bytes.count, bytes[at] == UInt8(ascii: "-") { at += 1 }
            let allowed: ClosedRange<UInt8> = UInt8(ascii: "0")...UInt8(ascii: "9")
            while at < bytes.count, allowed.contains(bytes[at]) || [0x2B, 0x2D, 0x2E, 0x45, 0x65].contains(bytes[at]) {
                at += 1
            }
            guard at > start, let first = bytes[start...].first(where: { $0 != UInt8(ascii: "-") }), allowed.contains(first),
                  let value = Double(String(decoding: bytes[start..<at], as: UTF8.self)), value.isFinite else { return nil }
            return .number(value)
        }
    }
}
