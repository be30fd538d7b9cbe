/// Work split in pieces that can run side by side: `forEach(count) { index in … }` returns
/// once every piece has run. The ISP knows nothing of threads: `sequential` runs the pieces
/// on the calling thread, and the runtime gives one that also runs them on helper threads of
/// the caller's own low priority (`helpers` of them), so a photo's merge uses both cores of
/// a small board without taking time from the loop.
public struct ParallelWork: Sendable {
    /// Threads that work at once, the caller's included.
    public let threads: Int
    private let runner: @Sendable (Int, (Int) -> Void) -> Void

    /// `runner(count, piece)` runs `piece` for every index below `count`, then returns.
    public init(threads: Int, runner: @escaping @Sendable (Int, (Int) -> Void) -> Void) {
        self.threads = max(threads, 1)
        self.runner = runner
    }

    public static let sequential = ParallelWork(threads: 1) { count, piece in
        for index in 0..<count { piece(index) }
    }

    public func forEach(_ count: Int, _ piece: (Int) -> Void) {
        guard count > 1, threads > 1 else {
            for index in 0..<count { piece(index) }
            return
        }
        runner(count, piece)
    }
}
