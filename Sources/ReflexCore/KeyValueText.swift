/// `key = value` lines with `#` comments: the Board files' format. Pure, so a board's
/// description can be checked on any machine.
public enum KeyValueText {
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public let line: Int
        public let text: String
        public var description: String { "line \(line) is not \"key = value\": \"\(text.prefix(60))\"" }
    }

    public static func parse(_ text: String) -> Result<[String: String], Problem> {
        var values: [String: String] = [:]
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first?.trimmingWhitespace() ?? ""
            if line.isEmpty { continue }
            guard let equals = line.firstIndex(of: "="),
                  case let key = line[..<equals].trimmingWhitespace(), !key.isEmpty else {
                return .failure(Problem(line: index + 1, text: String(raw)))
            }
            values[String(key)] = String(line[line.index(after: equals)...].trimmingWhitespace())
        }
        return .success(values)
    }
}
