/// Why a value was refused.
public struct SettingsValueError: Error, Sendable, Equatable, CustomStringConvertible {
    public let key: SettingsKey
    public let value: String
    public let reason: String

    public var description: String { "\(key.rawValue): \(reason)" }
}
