import Foundation

/// A program run to its end: its exit status and what it wrote.
public struct ProgramRun: Sendable {
    public let status: Int32
    public let output: String
    public let errors: String

    public init(executable: URL, _ arguments: [String], environment: [String: String]? = nil) throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Standard error read on a thread of its own, so that neither pipe can fill while the
        // other is read.
        let errors = ErrorBytes()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            errors.data = err.fileHandleForReading.readDataToEndOfFile()
            done.signal()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        done.wait()
        status = process.terminationStatus
        output = String(decoding: outData, as: UTF8.self)
        self.errors = String(decoding: errors.data, as: UTF8.self)
    }

    /// `program` found on the PATH, as a shell would.
    public init(_ arguments: [String]) throws {
        try self.init(executable: URL(fileURLWithPath: "/usr/bin/env"), arguments)
    }

    /// What `arguments` printed (standard output and error together), nil if it could not be
    /// started or failed.
    public static func output(_ arguments: [String]) -> String? {
        guard let run = try? ProgramRun(arguments), run.status == 0 else { return nil }
        return run.output + run.errors
    }
}

/// What the reading thread hands back (read only after it signalled).
private final class ErrorBytes: @unchecked Sendable {
    var data = Data()
}

/// The folder holding the test bundle, where SwiftPM also puts the package's executables
/// (`reflex`, `settings-writer`).
public enum BuildProducts {
    public static var folder: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    }
}
