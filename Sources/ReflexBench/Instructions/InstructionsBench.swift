import ArgumentParser
import ReflexCore
import ReflexStorage
import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// `reflex bench instructions`: each kernel's instructions a call, counted by callgrind (the
/// same on a quiet or a busy machine, and comparable across machines of one architecture),
/// beside its time here. A board's time follows from its count, its clock and the IPC its
/// cores reach; another architecture's build is counted the same way (an arm64 reflex under
/// qemu-user with valgrind's arm64 callgrind: `image-build/instruction-counts --arch arm64`).
struct InstructionsBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "instructions",
        abstract: "Count each kernel's instructions with callgrind, beside its time on this machine.")

    @Option(help: "Valgrind, or a callgrind tool run directly (callgrind-<arch>-linux, e.g. arm64's through qemu-user).")
    var valgrind = "valgrind"
    @Option(help: "The reflex whose kernels are counted (default: this one; another architecture's is counted, not timed).")
    var program: String?
    @Option(help: "Kernels, comma-separated (default: all): \(BenchKernel.allCases.map(\.rawValue).joined(separator: ", ")).")
    var kernels: String?
    @Option(help: "The large frames' size (photo ISP, JPEG, merge), WIDTHxHEIGHT.") var size = "4056x3040"
    @Option(help: "Timed calls of each kernel here (the median is shown).") var iterations = 5
    @Option(help: "The test data folder (default: the repository's Tests/Data).") var testdata: String?
    @Option(help: "Give up on one kernel's count after this many seconds.") var timeout = 3600.0

    func run() throws {
        let (width, height) = try LargeFrameSize.parse(size)
        guard let folder = TestData.locate(testdata) else { throw BenchError("no test data: pass --testdata DIR") }
        let chosen = try chosenKernels()
        let work = "/tmp/reflex-instructions-\(getpid())"
        try AtomicFile.createFolder(work)
        defer { _ = try? ChildProcess.run(["/bin/rm", "-rf", work], timeout: 30) }
        let counted = CallgrindCounter.countableCopy(of: program ?? executablePath(), in: work)
        let counter = CallgrindCounter(valgrind: valgrind, program: counted, timeout: timeout,
                                       arguments: ["--testdata", folder, "--size", size])
        let timedHere = program == nil
        print("Instructions a call, counted by callgrind (\(valgrind)) in \(program ?? "this reflex"); large frames \(width)x\(height)"
              + (timedHere ? "; time a call here, the median of \(iterations)" : ""))
        print("  kernel      work                                      instructions" + (timedHere ? "      time   instr/ns" : ""))
        var counts: [BenchKernel: Double] = [:]
        for kernel in chosen {
            let instructions = try counter.instructionsPerCall(kernel)
            counts[kernel] = instructions
            var line = "  " + kernel.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0)
                + kernel.work.padding(toLength: 40, withPad: " ", startingAt: 0)
                + Formatting.fixed(instructions / 1e6, 1, width: 12) + " M"
            if timedHere {
                let seconds = try medianCallSeconds(kernel, testdata: folder, width: width, height: height)
                line += "  " + Formatting.fixed(seconds * 1e3, 2, width: 8) + " ms"
                    + Formatting.fixed(instructions / (seconds * 1e9), 2, width: 10)
            }
            print(line)
            fflush(nil)  // each row as its kernel is counted (minutes each under an emulator), even into a file
        }
        for kernel in chosen {
            guard let reference = kernel.reference, let ours = counts[kernel], let theirs = counts[reference] else { continue }
            print("  \(kernel.rawValue) against \(reference.rawValue): \(Formatting.fixed(ours / theirs, 2, width: 0))× its instructions")
        }
    }

    private func chosenKernels() throws -> [BenchKernel] {
        guard let kernels else { return BenchKernel.allCases }
        return try kernels.split(separator: ",").map { name in
            guard let kernel = BenchKernel(rawValue: String(name)) else { throw ValidationError("no kernel \(name)") }
            return kernel
        }
    }

    /// The median time of a call here, after one call that warms the caches and tables.
    private func medianCallSeconds(_ kernel: BenchKernel, testdata: String, width: Int, height: Int) throws -> Double {
        let (call, release) = try kernel.prepare(testdata: testdata, width: width, height: height)
        defer { release() }
        call()
        return medianSeconds(iterations, call)
    }
}
