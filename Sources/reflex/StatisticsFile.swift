import ReflexSystem
import ReflexStorage
#if canImport(Glibc)
import Glibc
#endif

/// How `reflex stats` reaches a running camera: the camera writes its pid beside its
/// settings; `reflex stats` sends it SIGUSR1, and the camera answers by writing its frame
/// statistics to `frame-stats` (atomically) and to the log.
struct StatisticsFile {
    let folder: String
    var pidPath: String { folder + "/reflex.pid" }
    var statsPath: String { folder + "/frame-stats" }

    func writeProcessID() {
        try? AtomicFile.createFolder(folder)
        try? AtomicFile.write(Array("\(getpid())\n".utf8), to: pidPath)
    }

    func removeProcessID() { unlink(pidPath) }

    func publish(_ summary: String) {
        log(summary)
        do {
            try AtomicFile.write(Array((summary + "\n").utf8), to: statsPath)
        } catch {
            log("cannot write \(statsPath): \(error)")
        }
    }

    func readProcessID() -> pid_t? {
        guard let bytes = try? AtomicFile.read(pidPath, limit: 64) else { return nil }
        return pid_t(String(decoding: bytes, as: UTF8.self).trimmingWhitespace())
    }

    func readStatistics() -> String? {
        (try? AtomicFile.read(statsPath, limit: 4096)).flatMap { $0 }.map { String(decoding: $0, as: UTF8.self) }
    }
}

extension String {
    func trimmingWhitespace() -> String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
