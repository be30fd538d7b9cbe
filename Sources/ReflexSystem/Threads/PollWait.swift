import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// poll() with a timeout in seconds, kept to the microsecond (ppoll): the realtime loop
/// sleeps until a frame's latch, a millisecond before its vblank, where poll()'s whole
/// milliseconds would overshoot it. Returns poll's count of ready descriptors, or -1.
public func pollWaiting(_ descriptors: inout [pollfd], seconds: Double) -> Int32 {
    let microseconds = Int64((max(seconds, 0) * 1e6).rounded(.up))
    return descriptors.withUnsafeMutableBufferPointer { buffer in
        reflex_poll_microseconds(buffer.baseAddress, nfds_t(buffer.count), microseconds)
    }
}
