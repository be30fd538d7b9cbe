import ReflexCore
import ReflexSystem
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The camera's log during a soak: every line to a file (an hour's log is not kept in the
/// memory being measured), and the lines that say something went wrong counted and the
/// first of them kept for the report.
final class SoakLog: Sendable {
    let path: String
    private let file: Mutex<UnsafeMutablePointer<FILE>?>
    private let troubles = Mutex<(count: Int, first: [String])>((0, []))
    /// Words of a line that reports a failure (the camera's own wording).
    static let troubleWords = ["error", "failed", "cannot", "lost", "not saved", "refused", "damaged"]

    init(path: String) {
        self.path = path
        file = Mutex(fopen(path, "w"))
    }

    func write(_ line: String) {
        let stamped = Formatting.fixed(monotonicSeconds(), 3) + " " + line
        file.withLock { file in
            guard let file else { return }
            fputs(stamped + "\n", file)
            fflush(file)
        }
        let lowered = line.lowercased()
        guard SoakLog.troubleWords.contains(where: { lowered.contains($0) }) else { return }
        troubles.withLock {
            $0.count += 1
            if $0.first.count < 10 { $0.first.append(line) }
        }
    }

    var trouble: (count: Int, first: [String]) { troubles.withLock { $0 } }

    func close() { file.withLock { if let handle = $0 { fclose(handle) }; $0 = nil } }
}
