import CLinux

/// The C heap of a process that runs for days: what a big job freed goes back to the kernel,
/// so the camera's resident memory after a movie or a queue of photos is what it was before.
public enum HeapTuning {
    /// Gives the free pages of every arena back (a burst's buffers stay in the heap while it
    /// runs, and are reused; once the work is done they are returned). Takes each arena's
    /// lock in turn: for a thread that has just finished a big job, never the realtime loop's.
    public static func giveBackFreePages() {
        _ = reflex_heap_trim()
    }
}
