import ReflexCore
import ReflexSystem

/// Looks at an update file the way the camera decides on it: RAUC (`rauc info`, the real
/// verifier) checks its signature against the keyring of the camera's system.conf and reads
/// its manifest; the camera then weighs its board and version (UpdateVerdict).
public struct UpdateInspector: Sendable {
    /// Where RAUC and the camera read the camera's update configuration.
    public static let systemConfigPath = "/etc/rauc/system.conf"

    /// Why a file could not be looked at at all (the camera, not the file, lacks something).
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case noUpdateSlots(String)
        case noRAUC

        public var description: String {
            switch self {
            case .noUpdateSlots(let path): "this camera's system cannot be updated: no RAUC configuration at \(path)"
            case .noRAUC: "RAUC (the updater) is not installed"
            }
        }
    }

    public let systemConfigPath: String
    public let config: RAUCSystemConfig

    /// The inspector for the system that `systemConfigPath` describes.
    public init(systemConfigPath: String = UpdateInspector.systemConfigPath) throws(Problem) {
        guard let text = SmallFile.text(systemConfigPath),
              let config = RAUCSystemConfig(text, path: systemConfigPath) else { throw .noUpdateSlots(systemConfigPath) }
        self.systemConfigPath = systemConfigPath
        self.config = config
    }

    /// What RAUC reads of the file at `path` (its signature checked, a few seconds at most:
    /// a verity bundle's payload is checked as it is installed, not here).
    public func read(_ path: String) throws(Problem) -> BundleReading {
        let arguments = ["rauc", "info", "--conf=\(systemConfigPath)", "--output-format=json", path]
        guard let (status, output) = try? ChildProcess.run(arguments, timeout: 120) else { throw .noRAUC }
        return BundleReading.fromRAUCInfo(exitStatus: status, output: output)
    }

    /// The camera's verdict on the file at `path` while `running` runs.
    public func verdict(on path: String, running: FirmwareVersion, forced: Bool = false) throws(Problem) -> UpdateVerdict {
        UpdateVerdict.decide(try read(path), compatible: config.compatible, running: running, forced: forced)
    }
}
