import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// Runs `reflex bench kernel` under callgrind, counting only inside the instruction window:
/// the instructions of `calls` calls, over `calls` (a first call may still fill tables or
/// fault pages in; the preview ISP's first takes 0.3 % more than its second).
struct CallgrindCounter {
    let valgrind: String
    let program: String
    let timeout: Double
    /// What every kernel run is given (test data, frame size).
    let arguments: [String]

    static let calls = 2

    func instructionsPerCall(_ kernel: BenchKernel) throws -> Double {
        // (`--tool` for a tool binary run directly too, as valgrind's launcher passes it: without
        // it the tool preloads memcheck's allocator, and the program's malloc fails.)
        let command = [valgrind, "--tool=callgrind", "--callgrind-out-file=/dev/null", "--collect-atstart=no",
                       "--toggle-collect=\(InstructionWindow.collectPattern)",
                       program, "bench", "kernel", kernel.rawValue, "--repeat", String(Self.calls)] + arguments
        let (status, output) = try ChildProcess.run(command, timeout: timeout)
        guard status == 0, let total = Self.collected(inOutput: output), total > 0 else {
            throw BenchError("callgrind could not count \(kernel.rawValue) (\(status.map { "exit \($0)" } ?? "stopped")): "
                             + String(output.suffix(600)))
        }
        return total / Double(Self.calls)
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

    /// The instructions callgrind's summary says it collected (`==PID== Collected : N`).
    static func collected(inOutput output: String) -> Double? {
        for line in output.split(separator: "\n") where line.contains("== Collected :") {
            if let value = line.split(separator: " ").last.flatMap({ Double($0) }) { return value }
        }
        return nil
    }
}
