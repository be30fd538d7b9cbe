import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// Another program run by a benchmark, its standard error read line by line.
enum ChildProcess {
    /// Runs `arguments` until a line of its standard error contains `marker` (then stops it
    /// with SIGTERM), or until it exits when `marker` is nil. Returns the number that follows
    /// the marker on its line, and everything it wrote.
    static func runUntilLine(_ arguments: [String], matching marker: String?, timeout: Double) throws
        -> (number: Double?, output: String) {
        var pipeEnds: [Int32] = [0, 0]
        _ = try systemCall("pipe") { pipe(&pipeEnds) }
        let reader = FileDescriptor(taking: pipeEnds[0])
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 2)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, arguments[0], &actions, nil, &argv, environ)
        close(pipeEnds[1])
        guard spawned == 0 else { throw BenchError("cannot start \(arguments[0]): \(String(cString: strerror(spawned)))") }
        var output = "", pending = [UInt8](), found: Double?
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = monotonicSeconds() + timeout
        reading: while monotonicSeconds() < deadline {
            guard reader.waitReadable(milliseconds: 100) else { continue }
            let count = try buffer.withUnsafeMutableBytes { try reader.read(into: $0.baseAddress!, count: $0.count) }
            if count == 0 { break }
            pending += buffer[0..<count]
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                output += line + "\n"
                if let marker, let range = line.firstRange(of: marker) {
                    found = Double(line[range.upperBound...].prefix { $0.isNumber || $0 == "." })
                    break reading
                }
            }
        }
        kill(pid, SIGTERM)
        var status: Int32 = 0
        _ = retryingOnInterrupt { waitpid(pid, &status, 0) }
        return (found, output)
    }
}
