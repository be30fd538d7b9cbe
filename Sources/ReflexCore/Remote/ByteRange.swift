/// The part of a file an HTTP `Range` header asks for (RFC 9110 §14): one range of bytes,
/// `bytes=first-last`, `bytes=first-` or `bytes=-suffix`, as a phone's movie player asks as
/// it seeks. Several ranges at once are answered with the whole file (allowed, and no
/// player here needs more); a range past the end is unsatisfiable (416).
public enum ByteRange: Sendable, Equatable {
    case whole
    /// Bytes `range` of the file.
    case part(Range<Int64>)
    case unsatisfiable

    /// What `header` (nil: none) asks of a file of `size` bytes.
    public init(header: String?, size: Int64) {
        guard let header else {
            self = .whole
            return
        }
        let trimmed = header.trimmingSpaces
        guard trimmed.lowercased().hasPrefix("bytes=") else {
            // Another unit: ignored, as the standard says.
            self = .whole
            return
        }
        let spec = trimmed.dropFirst(6).trimmingSpaces
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else {
            self = spec.contains(",") ? .whole : .unsatisfiable
            return
        }
        let first = spec[..<dash].trimmingSpaces, last = spec[spec.index(after: dash)...].trimmingSpaces
        if first.isEmpty {
            // The last `suffix` bytes.
            guard let suffix = Self.number(last), suffix > 0, size > 0 else {
                self = .unsatisfiable
                return
            }
            self = .part(max(0, size - suffix)..<size)
            return
        }
        guard let start = Self.number(first), start < size else {
            self = .unsatisfiable
            return
        }
        if last.isEmpty {
            self = .part(start..<size)
        } else if let end = Self.number(last), end >= start {
            self = .part(start..<min(end + 1, size))
        } else {
            self = .unsatisfiable
        }
    }

    /// A `Content-Range` header's value for the answer (`bytes 0-99/1000`, `bytes */1000`).
    public func contentRange(size: Int64) -> String? {
        switch self {
        case .whole: nil
        case .part(let range): "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(size)"
        case .unsatisfiable: "bytes */\(size)"
        }
    }

    /// Digits only (no sign, no spaces inside), at most 18 of them.
    private static func number(_ text: String) -> Int64? {
        guard !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
        return Int64(text)
    }
}

extension StringProtocol {
    /// Without spaces and tabs at either end.
    var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
