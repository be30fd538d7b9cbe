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

extension KeyValueText {
    /// Why a board's configuration file (sensor.conf, display.conf) cannot be used.
    public enum ConfigurationProblem: Error, Sendable, Equatable, CustomStringConvertible {
        case syntax(Problem)
        case badValue(key: String, value: String)
        case unknownKey(String)
        case missingKey(String)

        public var description: String {
            switch self {
            case .syntax(let problem): "\(problem)"
            case .badValue(let key, let value): "\(key) = \(value) is not a valid value"
            case .unknownKey(let key): "unknown key \(key)"
            case .missingKey(let key): "no \(key) = … line"
            }
        }
    }

    /// What a configuration reader says of one line.
    public enum Acceptance: Sendable {
        case accepted, badValue, unknownKey
    }

    /// Reads a configuration file: `accept` takes each key and value in turn. The first line
    /// it does not accept is the problem.
    public static func readConfiguration(_ text: String,
                                         _ accept: (String, String) -> Acceptance) -> ConfigurationProblem? {
        switch parse(text) {
        case .failure(let problem): return .syntax(problem)
        case .success(let values):
            for (key, value) in values.sorted(by: { $0.key < $1.key }) {
                switch accept(key, value) {
                case .accepted: continue
                case .badValue: return .badValue(key: key, value: value)
                case .unknownKey: return .unknownKey(key)
                }
            }
            return nil
        }
    }
}
