import ReflexCore
import ReflexISP

/// What a board says about its panel (Board/<board>/display.conf), where the kernel cannot:
///
///     card = /dev/dri/card1        the card to use (default: the first with a connected display)
///     connector = DSI-1            the connector (default: the first connected one)
///     mode = 1280x800              the mode (default: the connector's preferred one)
///     rotation = 180               the picture turned clockwise on its way to the panel: 0, 90, 180, 270
///     dpi = 216                    the density of the mode used, where the kernel reports no size (or a wrong one)
///     backlight = 11-0045          the panel's backlight (/sys/class/backlight/NAME, or a pattern with *),
///                                  dimmed while an interval run waits between photos
public struct PanelConfiguration: Sendable, Equatable {
    public var card: String?
    public var connector: String?
    public var modeWidth: Int?
    public var modeHeight: Int?
    public var rotation: PanelRotation = .none
    public var density: PanelDensity?
    public var backlight: String?

    public init() {}

    public typealias Problem = KeyValueText.ConfigurationProblem

    public static func parse(_ text: String) -> Result<PanelConfiguration, Problem> {
        var configuration = PanelConfiguration()
        let problem = KeyValueText.readConfiguration(text) { key, value in
            switch key {
            case "card":
                guard value.hasPrefix("/") else { return .badValue }
                configuration.card = value
            case "connector": configuration.connector = value
            case "mode":
                let parts = value.split(separator: "x")
                guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0 else { return .badValue }
                (configuration.modeWidth, configuration.modeHeight) = (w, h)
            case "rotation":
                guard let degrees = Int(value), let rotation = PanelRotation(rawValue: degrees) else { return .badValue }
                configuration.rotation = rotation
            case "dpi":
                guard let dpi = Double(value), PanelDensity.plausibleDotsPerInch.contains(dpi) else { return .badValue }
                configuration.density = PanelDensity(dotsPerInch: dpi)
            case "backlight":
                guard !value.contains("/") else { return .badValue }
                configuration.backlight = value
            default: return .unknownKey
            }
            return .accepted
        }
        return problem.map { .failure($0) } ?? .success(configuration)
    }
}
