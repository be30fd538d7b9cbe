/// The named white balance presets of seed 000 story 2.5, with their Kelvin.
public enum WhiteBalancePreset: String, Sendable, CaseIterable {
    case sunny, cloudy, shade, tungsten, fluorescent

    public var kelvin: Int {
        switch self {
        case .sunny: 5500
        case .cloudy: 6500
        case .shade: 7500
        case .tungsten: 3200
        case .fluorescent: 4000
        }
    }

    public var name: String {
        switch self {
        case .sunny: "Sunny"
        case .cloudy: "Cloudy"
        case .shade: "Shade"
        case .tungsten: "Tungsten"
        case .fluorescent: "Fluorescent"
        }
    }
}

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

/// The Kelvin dial: 2000 K to 10000 K in 100 K steps, the granularity camera bodies use and
/// the resolution photographers write down. Up = higher Kelvin.
public struct KelvinScale: Sendable, Equatable {
    public static let minimum = 2000
    public static let maximum = 10000
    public static let step = 100
    public static let stopTable: [Int] = Array(stride(from: minimum, through: maximum, by: step))

    public let list: StopList<Int>

    public init() {
        list = StopList(table: KelvinScale.stopTable, isAvailable: { _ in true }, closeness: { _ in 0 })
    }

    public func nearest(to kelvin: Int) -> Int {
        list.nearest { Double(abs($0 - kelvin)) }
    }

    public func step(from kelvin: Int, _ direction: DialDirection) -> StepResult<Int> {
        list.step(from: kelvin, direction) { Double(abs($0 - kelvin)) }
    }
}
