import ReflexSystem

/// What this process holds now: resident memory, threads, open file descriptors (from /proc).
struct ProcessFigures: Equatable {
    let residentBytes: Int
    /// Of which the process's own memory (heaps, stacks), the rest being files mapped in
    /// (libraries' pages as they are first used).
    let anonymousBytes: Int
    let threads: Int
    let descriptors: Int

    static func now() -> ProcessFigures {
        ProcessFigures(residentBytes: PeakMemory.residentBytes ?? 0,
                       anonymousBytes: (PeakMemory.field("RssAnon:") ?? 0) * 1024, threads: PeakMemory.field("Threads:") ?? 0,
                       descriptors: openDescriptors())
    }

    /// The entries of /proc/self/fd, less the one the listing itself opens.
    private static func openDescriptors() -> Int { max(0, namesInFolder("/proc/self/fd").count - 1) }
}
