import ReflexISP
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
        guard let file = fopen(path, "r") else {
            return (SensorCalibration(), "board: no \(path); the sensor runs uncalibrated")
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while case let count = fread(&chunk, 1, chunk.count, file), count > 0 { bytes += chunk[..<count] }
        switch SensorCalibration.parse(String(decoding: bytes, as: UTF8.self)) {
        case .success(let calibration): return (calibration, "board: sensor calibration from \(path)")
        case .failure(let problem): return (SensorCalibration(), "board: \(path) is not usable (\(problem)); uncalibrated")
        }
    }
}
