#if canImport(Glibc)
import Glibc
#endif

/// Seconds on the monotonic clock (never jumps with the wall clock; the origin is arbitrary).
public func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) * 1e-9
}

/// Nanoseconds on the monotonic clock: the clock V4L2 stamps frames with, so sound read now
/// is placed against them exactly.
public func monotonicNanoseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
}

/// Seconds the calling thread has run on a CPU. Unlike the monotonic clock it stands still
/// while the thread sleeps or blocks in the kernel, while it is preempted, and — where the
/// kernel accounts steal time (PARAVIRT_TIME_ACCOUNTING, as Debian's and these machines'
/// kernels do) — while a virtual machine's host has taken its CPU away.
public func threadCPUSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) * 1e-9
}
