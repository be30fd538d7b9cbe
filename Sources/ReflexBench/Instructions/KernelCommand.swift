import ArgumentParser

/// `reflex bench kernel NAME`: one kernel alone, called `--repeat` times inside the
/// instruction window; what `reflex bench instructions` runs under callgrind.
struct KernelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kernel", abstract: "Run one kernel alone, for an instruction counter (see bench instructions).")

    @Argument(help: "The kernel: \(BenchKernel.allCases.map(\.rawValue).joined(separator: ", ")).")
    var name: String
    @Option(help: "Calls inside the counted window.") var `repeat` = 1
    @Option(help: "The test data folder (default: the repository's Tests/Data).") var testdata: String?
    @Option(help: "The large frames' size (photo ISP, JPEG, merge), WIDTHxHEIGHT.") var size = "4056x3040"

    func run() throws {
        guard let kernel = BenchKernel(rawValue: name) else {
            throw ValidationError("no kernel \(name): \(BenchKernel.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let (width, height) = try LargeFrameSize.parse(size)
        guard let folder = TestData.locate(testdata) else { throw BenchError("no test data: pass --testdata DIR") }
        let (call, release) = try kernel.prepare(testdata: folder, width: width, height: height)
        defer { release() }
        for _ in 0..<max(self.repeat, 1) { InstructionWindow.counted(call) }
    }
}
