import ReflexISP
import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// The photo thread's helpers for work that splits (an Enhanced RAW's merge): one thread of
/// the photo thread's own priority for each other core, made for the work and joined at its
/// end, so a merge takes every core the loop leaves and nothing the loop needs.
public enum PhotoHelperThreads {
    /// At most this many threads at once, the photo thread's included.
    static let mostThreads = 4

    public static func parallelWork(priority: WorkerThread.Priority, cores: Int = onlineCores()) -> ParallelWork {
        let threads = min(max(cores, 1), mostThreads)
        return ParallelWork(threads: threads) { count, piece in
            withoutActuallyEscaping(piece) { piece in
                let shared = SharedPiece(piece)
                let helpers = (1..<threads).map { WorkerThread(name: "reflex-photo-\($0)", priority: priority) }
                // (A helper that could not start leaves its pieces to this thread.)
                var mine = [0]
                for (offset, helper) in helpers.enumerated() {
                    let first = offset + 1
                    if !helper.start({ shared.run(from: first, by: threads, below: count) }) { mine.append(first) }
                }
                for first in mine { shared.run(from: first, by: threads, below: count) }
                for helper in helpers { helper.stop() }
            }
        }
    }

    public static func onlineCores() -> Int { max(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 1) }

    /// The piece, lent to the helpers for the call alone (they are joined before it returns).
    private final class SharedPiece: @unchecked Sendable {
        let piece: (Int) -> Void
        init(_ piece: @escaping (Int) -> Void) { self.piece = piece }

        func run(from first: Int, by step: Int, below count: Int) {
            for index in stride(from: first, to: count, by: step) { piece(index) }
        }
    }
}
