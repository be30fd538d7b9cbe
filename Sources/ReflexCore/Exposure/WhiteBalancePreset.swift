/// The named white balance presets (docs/camera.md, Auto and Pro), with their Kelvin.
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
