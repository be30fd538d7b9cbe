import ReflexHardware
import ReflexISP
import ReflexStorage
#if canImport(Glibc)
import Glibc
#endif

/// The board's description folder: `--board`, else $REFLEX_BOARD_DIR, else where the image
/// installs it. A board without a folder or a sensor.conf runs uncalibrated.
enum BoardFolder {
    static let defaultPath = "/usr/share/reflex/board"
    static let environmentVariable = "REFLEX_BOARD_DIR"

    static func resolve(flag: String?) -> String {
        if let flag, !flag.isEmpty { return flag }
        if let value = getenv(environmentVariable), value.pointee != 0 { return String(cString: value) }
        return defaultPath
    }

    /// The sensor calibration, and a line for the log saying where it came from.
    static func sensorCalibration(in folder: String) -> (SensorCalibration, String) {
        let path = folder + "/sensor.conf"
        guard let text = readText(path) else {
            return (SensorCalibration(), "board: no \(path); the sensor runs uncalibrated")
        }
        switch SensorCalibration.parse(text) {
        case .success(let calibration): return (calibration, "board: sensor calibration from \(path)")
        case .failure(let problem): return (SensorCalibration(), "board: \(path) is not usable (\(problem)); uncalibrated")
        }
    }

    /// The panel's description (card, connector, mode, rotation); none means the first
    /// connected display in its preferred mode, upright.
    static func panelConfiguration(in folder: String) -> (PanelConfiguration, String) {
        let path = folder + "/display.conf"
        guard let text = readText(path) else {
            return (PanelConfiguration(), "board: no \(path); the first connected display, upright")
        }
        switch PanelConfiguration.parse(text) {
        case .success(let configuration): return (configuration, "board: panel from \(path)")
        case .failure(let problem):
            return (PanelConfiguration(), "board: \(path) is not usable (\(problem)); the first connected display, upright")
        }
    }

    /// A board file's text; nil when it is missing or unreadable. (A board file is a few
    /// lines: 64 KiB is far more than one needs.)
    private static func readText(_ path: String) -> String? {
        (try? AtomicFile.read(path, limit: 1 << 16)).map { String(decoding: $0, as: UTF8.self) }
    }
}
