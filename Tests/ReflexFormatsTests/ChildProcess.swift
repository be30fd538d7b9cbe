import Glibc

/// A program the tests run (LibRaw's tools, dcraw, exiftool, tiffinfo, jpeginfo), with its
/// standard output and error captured. Some of them exit 0 on failure ("Unsupported file
/// format"), so tests read what they print, not only how they end.
struct ChildProcess {
    let status: Int32
    let output: [UInt8]
    let errorOutput: String

    var text: String { String(decoding: output, as: UTF8.self) }
    /// Both streams, for tools that print their verdict on either.
    var allText: String { text + errorOutput }

    /// Runs `arguments` (the program found on PATH) to its end.
    static func run(_ arguments: [String]) throws -> ChildProcess {
        var out: [Int32] = [0, 0], err: [Int32] = [0, 0]
        guard pipe(&out) == 0, pipe(&err) == 0 else { throw TestFailure("pipe: \(String(cString: strerror(errno)))") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, out[1], 1)
        posix_spawn_file_actions_adddup2(&actions, err[1], 2)
        for fd in out + err { posix_spawn_file_actions_addclose(&actions, fd) }
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawnp(&pid, arguments[0], &actions, nil, &argv, environ)
        close(out[1])
        close(err[1])
        defer { close(out[0]); close(err[0]) }
        guard spawned == 0 else {
            throw TestFailure("cannot start \(arguments[0]): \(String(cString: strerror(spawned)))")
        }
        let (stdout, stderr) = readBoth(out[0], err[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let exitStatus = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return ChildProcess(status: exitStatus, output: stdout, errorOutput: String(decoding: stderr, as: UTF8.self))
    }

    /// Both pipes to their ends, whichever has data (a full pipe would stop the child).
    private static func readBoth(_ first: Int32, _ second: Int32) -> ([UInt8], [UInt8]) {
        var descriptors = [pollfd(fd: first, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: second, events: Int16(POLLIN), revents: 0)]
        var collected: [[UInt8]] = [[], []]
        var buffer = [UInt8](repeating: 0, count: 65536)
        while descriptors.contains(where: { $0.fd >= 0 }) {
            guard poll(&descriptors, 2, -1) >= 0 || errno == EINTR else { break }
            for index in 0..<2 where descriptors[index].fd >= 0 && descriptors[index].revents != 0 {
                let count = read(descriptors[index].fd, &buffer, buffer.count)
                if count > 0 {
                    collected[index] += buffer[0..<count]
                } else if count == 0 || errno != EINTR {
                    descriptors[index].fd = -1
                }
            }
        }
        return (collected[0], collected[1])
    }
}
