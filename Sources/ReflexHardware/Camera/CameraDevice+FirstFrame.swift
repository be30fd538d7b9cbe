import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

extension CameraDevice {
    /// The first whole frame of a stream just started (a still mode's), after `skipping`
    /// others a sensor may spoil while it settles; damaged frames are passed over too. Gives
    /// up after 2 s and three times the frames' longest exposure, reckoned on `clock`.
    func firstWholeFrame(skipping: Int, longestExposure: Double, clock: TimeSource) throws(CameraError) -> CapturedFrame {
        let deadline = clock.now() + 2 + 3 * longestExposure * Double(skipping + 1)
        var dropped = 0
        while true {
            let left = deadline - clock.now()
            guard left > 0 else { throw CameraError.failed("no frame in the still mode", code: ETIMEDOUT) }
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&ready, 1, Int32(left * 1000) + 1)
            guard ready.revents & Int16(POLLIN) != 0, let frame = try dequeue() else { continue }
            if frame.corrupted || dropped < skipping {
                dropped += 1
                try requeue(frame)
                continue
            }
            return frame
        }
    }
}
