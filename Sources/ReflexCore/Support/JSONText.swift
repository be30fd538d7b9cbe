/// Just enough JSON writing for `reflex probe --json`, `reflex capture --json` and the
/// remote's answers, without Foundation (members in the order given; JSONValue is the reader).
public indirect enum JSONText: Sendable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case array([JSONText])
    case object([(String, JSONText)])

    public var text: String {
        switch self {
        case .string(let value): JSONText.quote(value)
        case .number(let value):
            value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        case .bool(let value): value ? "true" : "false"
        case .array(let items): "[" + items.map(\.text).joined(separator: ",") + "]"
        case .object(let members): "{" + members.map { JSONText.quote($0.0) + ":" + $0.1.text }.joined(separator: ",") + "}"
        }
    }

    public static func quote(_ string: String) -> String {
        var out = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
