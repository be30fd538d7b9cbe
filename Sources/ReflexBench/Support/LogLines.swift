import Synchronization

/// A benchmark's log: the camera's threads write lines, the benchmark prints those it wants.
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])

    func add(_ line: String) { lines.withLock { $0.append(line) } }

    /// The lines containing any of `words`, in order.
    func matching(_ words: [String]) -> [String] {
        lines.withLock { $0.filter { line in words.contains { line.contains($0) } } }
    }
}
