#if canImport(Glibc)
import Glibc
#endif

/// Another program the camera or a benchmark runs (hostapd, `ip`, ffmpeg), its standard error
/// read line by line.
public enum ChildProcess {
    /// Runs `arguments` until a line of its standard error contains `marker` (then stops it
    /// with SIGTERM), or until it exits when `marker` is nil. Returns the number that follows
    /// the marker on its line, and everything it wrote.
    public static func runUntilLine(_ arguments: [String], matching marker: String?, timeout: Double) throws
        -> (number: Double?, output: String) {
        let child = try spawn(arguments, standardOutput: nil)
        var output = "", found: Double?
        child.readLines(until: monotonicSeconds() + timeout) { line in
            output += line + "\n"
            guard let marker, let range = line.firstRange(of: marker) else { return true }
            found = Double(line[range.upperBound...].prefix { $0.isNumber || $0 == "." })
            return false
        }
        kill(child.pid, SIGTERM)
        _ = child.wait()
        return (found, output)
    }

    /// Runs `arguments` to its end (killed after `timeout` seconds): its exit status (nil if
    /// it did not exit by itself) and what it wrote, standard output and error together
    /// (standard error alone without `keepingOutput`).
    public static func run(_ arguments: [String], timeout: Double, keepingOutput: Bool = true) throws
        -> (status: Int32?, output: String) {
        let child = try spawn(arguments, standardOutput: keepingOutput ? 1 : nil)
        var output = ""
        let ended = child.readLines(until: monotonicSeconds() + timeout) { output += $0 + "\n"; return true }
        if !ended { kill(child.pid, SIGKILL) }
        let status = child.wait()
        return (ended && status & 0x7F == 0 ? (status >> 8) & 0xFF : nil, output)
    }

    /// Starts `arguments` (looked for on PATH), its standard output and error read together
    /// from the returned program's `readLines`, to run beside the caller until it stops it.
    public static func start(_ arguments: [String]) throws -> Running { try spawn(arguments, standardOutput: 1) }

    /// A started program and the reading end of its standard error (and output, when asked).
    public struct Running: ~Copyable {
        public let pid: pid_t
        let reader: FileDescriptor

        /// Hands each line to `take` until it returns false, the program closes the pipe
        /// (true) or `deadline` passes (false).
        @discardableResult
        public func readLines(until deadline: Double, _ take: (String) -> Bool) -> Bool {
            var pending = [UInt8](), buffer = [UInt8](repeating: 0, count: 4096)
            while monotonicSeconds() < deadline {
                guard reader.waitReadable(milliseconds: 100) else { continue }
                guard let count = try? buffer.withUnsafeMutableBytes({ try reader.read(into: $0.baseAddress!, count: $0.count) }),
                      count > 0 else {
                    if !pending.isEmpty { _ = take(String(decoding: pending, as: UTF8.self)) }
                    return true
                }
                pending += buffer[0..<count]
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending[..<newline], as: UTF8.self)
                    pending.removeSubrange(...newline)
                    if !take(line) { return false }
                }
            }
            return false
        }

        /// Waits for the program's end: its wait status.
        public func wait() -> Int32 {
            var status: Int32 = 0
            _ = retryingOnInterrupt { waitpid(pid, &status, 0) }
            return status
        }

        /// SIGTERM, then SIGKILL if it has not ended after `patience` seconds; its wait status,
        /// nil if it could not be stopped (a program that took another user cannot be
        /// signalled without the right to: never waited for forever).
        @discardableResult
        public func stop(patience: Double = 3) -> Int32? {
            for signal in [SIGTERM, SIGKILL] {
                kill(pid, signal)
                let deadline = monotonicSeconds() + patience
                while monotonicSeconds() < deadline {
                    if let status = hasEnded() { return status }
                    usleep(20_000)
                }
            }
            return nil
        }

        /// Its wait status once it has ended (reaped then), nil while it runs.
        public func hasEnded() -> Int32? {
            var status: Int32 = 0
            return retryingOnInterrupt({ waitpid(pid, &status, WNOHANG) }) == pid ? status : nil
        }
    }

    /// Starts `arguments` with its standard error on a pipe, and its standard output on the
    /// same pipe (`standardOutput: 1`) or /dev/null (nil).
    private static func spawn(_ arguments: [String], standardOutput: Int32?) throws -> Running {
        var pipeEnds: [Int32] = [0, 0]
        _ = try systemCall("pipe") { pipe(&pipeEnds) }
        // Close-on-exec: a program started by another thread never holds the write end open.
        pipeEnds.forEach { _ = fcntl($0, F_SETFD, FD_CLOEXEC) }
        let reader = FileDescriptor(taking: pipeEnds[0])
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 2)
        if standardOutput != nil {
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawnp(&pid, arguments[0], &actions, nil, &argv, environ)
        close(pipeEnds[1])
        guard spawned == 0 else { throw ChildProcessError(description: "cannot start \(arguments[0]): \(String(cString: strerror(spawned)))") }
        return Running(pid: pid, reader: reader)
    }
}

/// A program that could not be started.
public struct ChildProcessError: Error, CustomStringConvertible {
    public let description: String
}
