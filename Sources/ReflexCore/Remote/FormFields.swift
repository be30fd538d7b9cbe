/// The fields of a form body (`application/x-www-form-urlencoded`: `a=1&b=x%2By`), as the
/// remote's page posts its controls: `+` is a space, `%XX` a byte; a malformed escape or
/// text that is not UTF-8 makes the whole body unreadable (nil).
public enum FormFields {
    public static let maximumBytes = 4096

    public static func parse(_ body: [UInt8]) -> [String: String]? {
        guard body.count <= maximumBytes else { return nil }
        var fields: [String: String] = [:]
        for pair in body.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(parts[0]), let value = parts.count == 2 ? decode(parts[1]) : "" else { return nil }
            fields[name] = value
        }
        return fields
    }

    private static func decode(_ bytes: ArraySlice<UInt8>) -> String? {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.endIndex, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
                else { return nil }
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        return String(validating: decoded, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
