import CLinux

/// The C heap of a process that runs for days: what a big job freed goes back to the kernel,
/// so the camera's resident memory after a movie or a queue of photos is what it was before.
public enum HeapTuning {
    /// Gives the free pages of every arena back (a burst's buffers stay in the heap while it
    /// runs, and are reused; once the work is done they are returned). Takes each arena's
    /// lock in turn: for a thread that has just finished a big job, never the realtime loop's.
    /// (Rather than a fixed mapping threshold, which returns each big block as it is freed:
    /// a photo's 25 MB encoding buffer then comes fresh from the kernel each time, and
    /// `reflex bench burst` saved 12 MP DNGs back to back about a fifth slower.)
    public static func giveBackFreePages() {
        _ = reflex_heap_trim()
    }

    /// What malloc holds now: the bytes in use in its heaps, and in the big blocks it mapped
    /// one by one. Beside the resident size, tells what the program keeps from what the
    /// heap merely holds on to. Locks each arena in turn while it counts.
    public static func heldBytes() -> (inHeaps: Int, mappedBlocks: Int) {
        var inUse = 0, mapped = 0
        reflex_heap_figures(&inUse, &mapped)
        return (inUse, mapped)
    }
}
