import ReflexSystem
import Testing
@testable import ReflexHardware
#if canImport(Glibc)
import Glibc
#endif

/// The simulated sensor stamps a frame when its timer tick was due, as a driver stamps a
/// frame's end at its interrupt: a reader that wakes late (a busy machine) does not move the
/// stamps, nor with them which frame a press at a given moment takes.
@Suite("The simulated sensor's timestamps")
struct SimulatedFrameStampTests {
    @Test func framesReadLateAreStampedWhenTheyEnded() throws {
        let camera = SimulatedCamera()
        _ = try camera.setFormat(fourCC: 0, width: SimulatedCamera.binnedWidth, height: SimulatedCamera.binnedHeight)
        let started = monotonicSeconds()
        try camera.start(bufferCount: 4)
        defer { camera.stop() }
        let period = camera.frameSeconds
        func frameAfter(sleeping seconds: Double) throws -> CapturedFrame {
            usleep(UInt32(seconds * 1e6))
            return try #require(try camera.dequeue(), "a frame is due after \(seconds) s")
        }
        // Read three and a half frame times late, then half a frame late.
        let first = try frameAfter(sleeping: period * 3.5)
        let second = try frameAfter(sleeping: period * 1.5)
        let firstEnded = Double(first.timestampNanoseconds) / 1e9, secondEnded = Double(second.timestampNanoseconds) / 1e9
        let ticks = Double(second.sequence - first.sequence)
        #expect(ticks >= 1)
        #expect(abs(secondEnded - firstEnded - ticks * period) < 1e-6, "stamps \(ticks) frame times apart, to the microsecond")
        #expect(firstEnded > started && firstEnded <= monotonicSeconds())
        #expect(secondEnded <= monotonicSeconds())
    }
}
