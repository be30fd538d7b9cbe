/// One of a board's cameras as a lens of the one virtual camera (docs/camera.md, The controls): its
/// role, what finds its camera, and where it sits on the zoom. Read from the board's
/// `lenses/<role>.conf`, beside that sensor's own calibration keys (sensor.conf's).
public struct LensDescription: Sendable, Equatable {
    public enum Role: String, Sendable, CaseIterable {
        case ultraWide = "ultra-wide", wide, tele

        /// The magnification a role has when the board does not say: the usual phone trio's.
        var usualMagnification: Double {
            switch self {
            case .ultraWide: 0.5
            case .wide: 1
            case .tele: 3
            }
        }
    }

    public var role: Role
    /// What finds its camera: a capture node (/dev/video4), or a name the probe shows: the
    /// sensor's media entity ("imx708 10-001a", "Sensor B"), the card, or the bus
    /// ("platform:vivid-001"), which stay the same whatever order nodes are numbered in.
    public var camera: String
    /// Its field of view against the wide's, as the zoom counts: 0.5, 1, 3, 5.
    public var magnification: Double
    /// The zoom factor at which zooming in changes to this lens (and zooming out leaves it);
    /// the magnification itself unless the board says (a tele that is soft close up may
    /// take over later, with the wide's digital zoom until then).
    public var switchOver: Double

    public init(role: Role, camera: String, magnification: Double? = nil, switchOver: Double? = nil) {
        self.role = role
        self.camera = camera
        self.magnification = magnification ?? role.usualMagnification
        self.switchOver = max(switchOver ?? self.magnification, self.magnification)
    }

    /// "0.5x", "1x", "3x": the lens button's label.
    public var label: String { Formatting.zoomLabel(magnification) }

    /// The keys a lens file holds for the lens (the rest are the sensor's calibration).
    public static let keys: Set<String> = ["camera", "magnification", "switch-over"]

    /// The lens keys of `<role>.conf`; other keys are left for the calibration to read.
    public static func parse(role: Role, _ text: String) -> Result<LensDescription, KeyValueText.ConfigurationProblem> {
        var camera: String?
        var magnification: Double?
        var switchOver: Double?
        let problem = KeyValueText.readConfiguration(text) { key, value in
            func factor() -> Double? { Double(value).flatMap { $0 >= 0.1 && $0 <= 100 ? $0 : nil } }
            switch key {
            case "camera":
                guard !value.isEmpty, value.count <= 128 else { return .badValue }
                camera = value
            case "magnification":
                guard let n = factor() else { return .badValue }
                magnification = n
            case "switch-over":
                guard let n = factor() else { return .badValue }
                switchOver = n
            default: break
            }
            return .accepted
        }
        if let problem { return .failure(problem) }
        guard let camera else { return .failure(.badValue(key: "camera", value: "(missing)")) }
        if let switchOver, switchOver < (magnification ?? role.usualMagnification) {
            return .failure(.badValue(key: "switch-over", value: Formatting.fixed(switchOver, 2)))
        }
        return .success(LensDescription(role: role, camera: camera, magnification: magnification, switchOver: switchOver))
    }
}
