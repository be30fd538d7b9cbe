import ArgumentParser
import ReflexCore
import ReflexStorage
import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// Start-up as a figure: reflex started again and again with the simulated sensor on the
/// headless display, each start timed from its exec to its first page flip (the time the
/// camera itself logs, taken when the flip came), beside the floor under any start: the same
/// binary exec'd to print its version and exit.
struct StartBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "start", abstract: "Benchmark start-up: process start to the first frame on the panel.")

    @Option(help: "Starts to time.") var starts = 9

    func validate() throws {
        guard starts >= 1 else { throw ValidationError("--starts must be at least 1") }
    }

    func run() throws {
        let folder = "/tmp/reflex-bench-start-\(getpid())"
        try AtomicFile.createFolder(folder)
        defer { _ = system("rm -rf '\(folder)'") }
        print("Start-up: reflex run --sensor sim --display png:DIR, \(starts) starts, exec → first page flip")
        var camera: [Double] = [], floor: [Double] = []
        for index in 0..<starts {
            let state = folder + "/state-\(index)"
            let (milliseconds, output) = try ChildProcess.runUntilLine(
                [executablePath(), "run", "--sensor", "sim", "--display", "png:" + folder + "/png-\(index)",
                 "--state-dir", state, "--board", folder + "/no-board"],
                matching: "display: first frame on the panel ", timeout: 30)
            guard let milliseconds else { throw BenchError("no first frame within 30 s:\n\(output)") }
            camera.append(milliseconds)
            let versionStart = bootSeconds()
            _ = try ChildProcess.runUntilLine([executablePath(), "--version"], matching: nil, timeout: 10)
            floor.append((bootSeconds() - versionStart) * 1000)
        }
        print("  case                                          median ms   best ms   worst ms")
        print(StartBench.row("reflex: exec → first frame on the panel", camera))
        print(StartBench.row("reference: exec → exit of reflex --version", floor))
        print("  target: median ≤ 200 ms")
    }

    static func row(_ name: String, _ values: [Double]) -> String {
        let sorted = values.sorted()
        return "  " + Formatting.padRight(name, 44) + Formatting.fixed(sorted[sorted.count / 2], 1, width: 11)
            + Formatting.fixed(sorted[0], 1, width: 10) + Formatting.fixed(sorted[sorted.count - 1], 1, width: 11)
    }
}
