/// The settings file's text form: a header with the format version, `key = value` lines,
/// and an `end` line, so a file cut short anywhere is recognised as truncated.
///
///     # Reflex camera settings …
///     reflex-settings 1
///     mode = pro
///     iso = 400
///     end
public enum SettingsFile {
    public static let version = 1
    static let headerWord = "reflex-settings"
    static let endLine = "end"
    /// Anything larger is not a settings file; refusing it keeps a stray huge file from being read.
    public static let maximumBytes = 64 * 1024

    /// Why a file's text could not be used. Each says what was found, for the log.
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case empty
        case tooLarge(bytes: Int)
        case notText
        case missingHeader(firstLine: String)
        case unsupportedVersion(String)
        case truncated
        case malformedLine(number: Int, text: String)
        case duplicateKey(SettingsKey)
        case badValue(SettingsValueError)
        case manualValueInAutoMode(SettingsKey)
        case textAfterEnd(number: Int)

        public var description: String {
            switch self {
            case .empty: "the file is empty"
            case .tooLarge: "the file is larger than \(SettingsFile.maximumBytes) bytes, too large for a settings file"
            case .notText: "the file is not UTF-8 text"
            case .missingHeader(let line): "the first line is not \"\(SettingsFile.headerWord) N\" but \"\(line.prefix(60))\""
            case .unsupportedVersion(let text): "unknown format version \"\(text.prefix(20))\""
            case .truncated: "the file ends before its \"\(SettingsFile.endLine)\" line (truncated)"
            case .malformedLine(let number, let text): "line \(number) is not \"key = value\": \"\(text.prefix(60))\""
            case .duplicateKey(let key): "\(key.rawValue) is set twice"
            case .badValue(let error): error.description
            case .manualValueInAutoMode(let key): "\(key.rawValue) is manual although mode is auto"
            case .textAfterEnd(let number): "line \(number) follows the \"\(SettingsFile.endLine)\" line"
            }
        }
    }

    /// What a good file held, and what it held that this version does not know.
    public struct Decoded: Sendable, Equatable {
        public var settings: CameraSettings
        /// Keys from a newer Reflex, read past and reported.
        public var unknownKeys: [String]
    }

    public static func encode(_ settings: CameraSettings) -> String {
        var text = "# Reflex camera settings. Change them with `reflex settings set KEY VALUE`;\n"
        text += "# the camera rewrites this file whole (atomically) on every change.\n"
        text += "\(headerWord) \(version)\n"
        for key in SettingsKey.allCases {
            text += "\(key.rawValue) = \(settings.value(of: key))\n"
        }
        text += endLine + "\n"
        return text
    }

    /// Keys missing from a good file keep their first-start default: a newer key is simply
    /// absent from an older file.
    public static func decode(_ bytes: [UInt8]) -> Result<Decoded, Problem> {
        guard !bytes.isEmpty else { return .failure(.empty) }
        guard bytes.count <= maximumBytes else { return .failure(.tooLarge(bytes: bytes.count)) }
        guard !bytes.contains(0), let text = String(validating: bytes, as: UTF8.self) else {
            return .failure(.notText)
        }
        // The lines that carry content, with their numbers for messages. Split on any newline:
        // Swift reads "\r\n" as one Character, so splitting on "\n" alone would miss it.
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            .enumerated()
            .map { (number: $0.offset + 1, text: $0.element.trimmingWhitespace()) }
            .filter { !$0.text.isEmpty && !$0.text.hasPrefix("#") }

        // The frame first, so a cut-off file is called truncated, not blamed on its last value.
        guard let header = lines.first else { return .failure(.missingHeader(firstLine: "")) }
        let words = header.text.split(separator: " ", omittingEmptySubsequences: true)
        guard words.count == 2, words[0] == headerWord else {
            return .failure(.missingHeader(firstLine: String(header.text)))
        }
        // A newer version keeps the keys we know: a firmware downgrade loses nothing it can read.
        guard let fileVersion = Int(words[1]), fileVersion >= 1 else {
            return .failure(.unsupportedVersion(String(words[1])))
        }
        guard let endIndex = lines.firstIndex(where: { $0.text == endLine }) else { return .failure(.truncated) }
        if endIndex != lines.count - 1 { return .failure(.textAfterEnd(number: lines[endIndex + 1].number)) }

        var settings = CameraSettings.firstStart
        var seen = Set<SettingsKey>()
        var unknown: [String] = []
        for line in lines[1..<endIndex] {
            guard let equals = line.text.firstIndex(of: "=") else {
                return .failure(.malformedLine(number: line.number, text: String(line.text)))
            }
            let name = line.text[..<equals].trimmingWhitespace()
            let value = line.text[line.text.index(after: equals)...].trimmingWhitespace()
            guard !name.isEmpty, !value.isEmpty else {
                return .failure(.malformedLine(number: line.number, text: String(line.text)))
            }
            guard let key = SettingsKey(rawValue: String(name)) else {
                unknown.append(String(name))
                continue
            }
            guard seen.insert(key).inserted else { return .failure(.duplicateKey(key)) }
            do throws(SettingsValueError) {
                try settings.set(key, from: String(value))
            } catch {
                return .failure(.badValue(error))
            }
        }
        // `set(.mode, auto)` clears manual values only if mode came first; check the rule at the end.
        if let key = settings.checkModeRule() { return .failure(.manualValueInAutoMode(key)) }
        return .success(Decoded(settings: settings, unknownKeys: unknown))
    }
}

extension Substring {
    /// Spaces, tabs and a CR (a file edited on Windows) trimmed from both ends.
    func trimmingWhitespace() -> Substring {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !isBlank($0) }),
              let last = lastIndex(where: { !isBlank($0) }) else { return self[endIndex...] }
        return self[first...last]
    }
}
