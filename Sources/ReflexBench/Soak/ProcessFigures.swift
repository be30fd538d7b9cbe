import ReflexSystem

/// What this process holds now: resident memory, threads, open file descriptors (from /proc).
struct ProcessFigures: Equatable {
    let residentBytes: Int
    /// Of which the process's own memory (heaps, stacks), the rest being files mapped in
    /// (libraries' pages as they are first used).
    let anonymousBytes: Int
    /// What malloc has handed out and not had back: in its heaps, and as big blocks mapped
    /// one by one. A leak grows these; the rest of the anonymous memory is the heaps' free
    /// pages, stacks and the camera's own mapped buffers.
    let heapInUseBytes: Int
    let heapMappedBlockBytes: Int
    let threads: Int
    let descriptors: Int

    static func now() -> ProcessFigures {
        let heap = HeapTuning.heldBytes()
        return ProcessFigures(residentBytes: PeakMemory.residentBytes ?? 0,
                              anonymousBytes: (PeakMemory.field("RssAnon:") ?? 0) * 1024,
                              heapInUseBytes: heap.inHeaps, heapMappedBlockBytes: heap.mappedBlocks,
                              threads: PeakMemory.field("Threads:") ?? 0, descriptors: openDescriptors())
    }

    /// The entries of /proc/self/fd, less the one the listing itself opens.
    private static func openDescriptors() -> Int { max(0, namesInFolder("/proc/self/fd").count - 1) }
}
