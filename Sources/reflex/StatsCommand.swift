import ReflexSystem
import ArgumentParser
import ReflexStorage
#if canImport(Glibc)
import Glibc
#endif

/// Asks the running camera for its display's frame statistics (fps, frame-time p50/p99/max,
/// missed vblanks) and prints them.
struct Stats: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the running camera's frame statistics (it answers SIGUSR1).")

    @OptionGroup var state: StateOptions
    @Option(help: "Seconds to wait for the answer.") var timeout: Double = 3

    func run() throws {
        let file = StatisticsFile(folder: StateFolder.resolve(flag: state.stateDirectory))
        // The pid must still be a reflex: a stale file after a crash could name any process,
        // and SIGUSR1 would kill it.
        guard let pid = file.readProcessID(), Self.isReflex(pid) else {
            log("no running camera found (\(file.pidPath))")
            throw ExitCode(69)  // EX_UNAVAILABLE
        }
        let before = Self.modificationTime(file.statsPath)
        guard kill(pid, SIGUSR1) == 0 else {
            log("cannot signal the camera (pid \(pid)): permission denied?")
            throw ExitCode(77)  // EX_NOPERM
        }
        // (Counted on the clock, not in sleeps: on a machine whose realtime threads leave
        // ordinary ones little CPU, each 20-ms sleep took a second and 3 s became 150.)
        let deadline = monotonicSeconds() + timeout
        while Self.modificationTime(file.statsPath) == before {
            guard monotonicSeconds() < deadline else {
                log("the camera (pid \(pid)) did not answer within \(timeout) s")
                throw ExitCode(75)  // EX_TEMPFAIL
            }
            usleep(20_000)
        }
        print(file.readStatistics()?.trimmingWhitespace() ?? "")
    }

    static func isReflex(_ pid: pid_t) -> Bool {
        guard let name = try? AtomicFile.read("/proc/\(pid)/comm", limit: 64) else { return false }
        return String(decoding: name, as: UTF8.self).trimmingWhitespace() == "reflex"
    }

    static func modificationTime(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec
    }
}
