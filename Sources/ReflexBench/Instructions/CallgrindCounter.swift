import ReflexStorage
import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// Runs `reflex bench kernel` under callgrind, counting only inside the instruction window,
/// with a profile dumped after each call: the last call's count is the kernel's, warm (its
/// first call may still fill tables or fault pages in).
struct CallgrindCounter {
    let valgrind: String
    let program: String
    let timeout: Double
    /// What every kernel run is given (test data, frame size).
    let arguments: [String]

    static let calls = 2

    func instructionsPerCall(_ kernel: BenchKernel) throws -> Double {
        let folder = "/tmp/reflex-callgrind-\(getpid())-\(kernel.rawValue)"
        try AtomicFile.createFolder(folder)
        defer { _ = try? ChildProcess.run(["/bin/rm", "-rf", folder], timeout: 30) }
        // (`--tool` for a tool binary run directly too, as valgrind's launcher passes it: without
        // it the tool preloads memcheck's allocator, and the program's malloc fails.)
        let command = [valgrind, "--tool=callgrind", "--callgrind-out-file=\(folder)/callgrind.out", "--collect-atstart=no",
                       "--toggle-collect=\(InstructionWindow.collectPattern)", "--dump-after=\(InstructionWindow.dumpPattern)",
                       program, "bench", "kernel", kernel.rawValue, "--repeat", String(Self.calls)] + arguments
        let (status, output) = try ChildProcess.run(command, timeout: timeout)
        guard status == 0 else {
            throw BenchError("callgrind could not count \(kernel.rawValue) (\(status.map { "exit \($0)" } ?? "stopped")): "
                             + String(output.suffix(600)))
        }
        let dumps = (1...Self.calls).map { "\(folder)/callgrind.out.\($0)" }
        guard let last = dumps.last, let count = Self.totalInstructions(inDump: last) else {
            throw BenchError("callgrind left no count for \(kernel.rawValue) in \(folder): " + String(output.suffix(600)))
        }
        return count
    }

    /// The program valgrind is given: a copy of it without its debugging information where
    /// `strip` can make one (Debian 12's valgrind cannot read what Swift 6's compiler writes;
    /// the symbols stay, and the instructions are the same), else the program itself (another
    /// architecture's, which this machine's strip does not know, read by that one's valgrind).
    static func countableCopy(of program: String, in folder: String) -> String {
        let copy = folder + "/reflex"
        let stripped = try? ChildProcess.run(["strip", "--strip-debug", "-o", copy, program], timeout: 120)
        return stripped?.status == 0 ? copy : program
    }

    /// The `totals:` (or `summary:`) line of one callgrind dump: its instructions.
    static func totalInstructions(inDump path: String) -> Double? {
        guard let bytes = try? TestData.load(path) else { return nil }
        defer { bytes.deallocate() }
        let text = String(decoding: bytes, as: UTF8.self)
        for line in text.split(separator: "\n") where line.hasPrefix("totals:") || line.hasPrefix("summary:") {
            if let value = line.split(separator: " ").last.flatMap({ Double($0) }) { return value }
        }
        return nil
    }
}
