import ReflexCore
import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// The settings file in the state folder. Every change is saved whole and atomically;
/// loading never fails: a file that cannot be used gives the first-start defaults, a
/// warning, and the bad file kept beside it for inspection.
public struct SettingsStore: Sendable {
    public static let fileName = "settings.conf"
    /// Corrupt files set aside are named `settings.conf.bad-<unix time>`; only the newest
    /// few are kept so a loop of bad writes cannot fill the card.
    public static let setAsideMarker = ".bad-"
    public static let setAsideKept = 5

    public let folder: String
    public var path: String { folder + "/" + SettingsStore.fileName }

    public init(folder: String) {
        self.folder = folder
    }

    /// What loading found. `warnings` are for the log (and the screen where it matters).
    public struct Loaded: Sendable {
        public var settings: CameraSettings
        public var warnings: [String]
        /// True when there was no settings file: the camera's first start.
        public var isFirstStart: Bool
        /// Where a corrupt file was moved, if one was.
        public var setAsidePath: String?
    }

    public func load(now: Int = Int(time(nil))) -> Loaded {
        removeAbandonedTemporaryFiles()
        let bytes: [UInt8]?
        do {
            bytes = try AtomicFile.read(path, limit: SettingsFile.maximumBytes)
        } catch {
            return Loaded(settings: .firstStart,
                          warnings: ["settings: cannot read \(path) (\(error)); using defaults"],
                          isFirstStart: false, setAsidePath: nil)
        }
        guard let bytes else {
            return Loaded(settings: .firstStart, warnings: [], isFirstStart: true, setAsidePath: nil)
        }
        switch SettingsFile.decode(bytes) {
        case .success(let decoded):
            let warnings = decoded.unknownKeys.map {
                "settings: \(path) has the key \"\($0)\", which this version of Reflex does not know; ignored"
            }
            return Loaded(settings: decoded.settings, warnings: warnings, isFirstStart: false, setAsidePath: nil)
        case .failure(let problem):
            var warning = "settings: \(path) cannot be used: \(problem); using defaults"
            var setAside: String?
            do {
                setAside = try setAsideCorruptFile(now: now)
                warning += " (the file is kept as \(setAside!))"
            } catch {
                warning += " (and it could not be set aside: \(error))"
            }
            return Loaded(settings: .firstStart, warnings: [warning], isFirstStart: false, setAsidePath: setAside)
        }
    }

    /// Saves the settings at once, atomically and durably.
    public func save(_ settings: CameraSettings) throws(SystemError) {
        try AtomicFile.createFolder(folder)
        try AtomicFile.write(Array(SettingsFile.encode(settings).utf8), to: path)
    }

    private func setAsideCorruptFile(now: Int) throws(SystemError) -> String {
        var destination = path + SettingsStore.setAsideMarker + String(now)
        var attempt = 1
        while access(destination, F_OK) == 0 {
            attempt += 1
            destination = path + SettingsStore.setAsideMarker + "\(now)-\(attempt)"
        }
        try AtomicFile.move(path, to: destination)
        pruneSetAsideFiles()
        return destination
    }

    /// Names in the folder that start with `prefix`.
    private func entries(startingWith prefix: String) -> [String] {
        namesInFolder(folder).filter { $0.hasPrefix(prefix) }
    }

    /// Keeps the newest few set-aside files, by the time in their names: a board without a
    /// clock may have left old modification times on them.
    private func pruneSetAsideFiles() {
        let prefix = SettingsStore.fileName + SettingsStore.setAsideMarker
        func age(_ name: String) -> (Int, Int) {
            let parts = name.dropFirst(prefix.count).split(separator: "-")
            return (parts.first.flatMap { Int($0) } ?? 0, parts.count > 1 ? Int(parts[1]) ?? 0 : 0)
        }
        let byAge = entries(startingWith: prefix).sorted { age($0) < age($1) }
        for name in byAge.dropLast(SettingsStore.setAsideKept) {
            unlink(folder + "/" + name)
        }
    }

    /// A writer killed between creating its temporary file and renaming it leaves the
    /// temporary behind. Those whose writer is gone are removed; a live writer's is left alone.
    private func removeAbandonedTemporaryFiles() {
        AtomicFile.removeAbandonedTemporaries(in: folder)
    }
}
