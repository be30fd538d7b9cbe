/// White balance: automatic, a preset, or a Kelvin value set on the dial.
public enum WhiteBalance: Sendable, Hashable, CustomStringConvertible {
    case auto
    case preset(WhiteBalancePreset)
    case kelvin(Int)

    /// The order presets are offered in, Auto first as the seed lists them.
    public static let presetRow: [WhiteBalance] = [.auto] + WhiteBalancePreset.allCases.map { .preset($0) }

    /// The colour temperature this setting asks for; nil when Auto decides.
    public var kelvin: Int? {
        switch self {
        case .auto: nil
        case .preset(let preset): preset.kelvin
        case .kelvin(let k): k
        }
    }

    /// Name and Kelvin, as the seed asks: "Auto", "Sunny 5500K", "5600K".
    public var description: String {
        switch self {
        case .auto: "Auto"
        case .preset(let preset): "\(preset.name) \(preset.kelvin)K"
        case .kelvin(let k): "\(k)K"
        }
    }

    /// The settings-file form: "auto", "sunny", "5600K".
    public var settingValue: String {
        switch self {
        case .auto: "auto"
        case .preset(let preset): preset.rawValue
        case .kelvin(let k): "\(k)K"
        }
    }

    /// Parses `settingValue` (case-insensitive; the K is optional). Kelvin must be a dial stop.
    public init?(parsing text: String) {
        let lower = text.lowercased()
        if lower == "auto" { self = .auto; return }
        if let preset = WhiteBalancePreset(rawValue: lower) { self = .preset(preset); return }
        let digits = lower.hasSuffix("k") ? String(lower.dropLast()) : lower
        guard let k = Int(digits), KelvinScale.stopTable.contains(k) else { return nil }
        self = .kelvin(k)
    }
}
