import ReflexSystem

/// What this process holds now: resident memory, threads, open file descriptors (from /proc).
struct ProcessFigures: Equatable {
    let residentBytes: Int
    let threads: Int
    let descriptors: Int

    static func now() -> ProcessFigures {
        ProcessFigures(residentBytes: PeakMemory.residentBytes ?? 0, threads: PeakMemory.field("Threads:") ?? 0,
                       descriptors: openDescriptors())
    }

    /// The entries of /proc/self/fd, less the one the listing itself opens.
    private static func openDescriptors() -> Int { max(0, namesInFolder("/proc/self/fd").count - 1) }
}
