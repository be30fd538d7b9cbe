#if canImport(Glibc)
import Glibc
#endif

/// Seconds on the monotonic clock (never jumps with the wall clock; the origin is arbitrary).
public func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) * 1e-9
}

/// Seconds the calling thread has run on a CPU. Unlike the monotonic clock it stands still
/// while the thread waits, is preempted, or (on a virtual machine whose kernel accounts
/// steal time) while the hypervisor has taken its CPU away.
public func threadCPUSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) * 1e-9
}
