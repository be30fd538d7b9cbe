import CV4L2
import ReflexSystem
import Testing
@testable import ReflexHardware
#if canImport(Glibc)
import Glibc
#endif

/// The simulated sensor stamps a frame when its timer tick was due, as a driver stamps a
/// frame's end at its interrupt: a reader that wakes late (a busy machine) does not move the
/// stamps, nor with them which frame a press at a given moment takes.
@Suite("The simulated sensor's timestamps and rates")
struct SimulatedFrameStampTests {
    /// As a UVC camera's discrete frame intervals: the mode's rate divided by a whole number,
    /// the fastest not above the rate asked; a new format starts at its mode's rate again.
    @Test func aSlowerRateIsTheModesDividedByAWholeNumber() throws {
        // (Rates from frame times in whole nanoseconds: 1/30 s is 33,333,333 ns.)
        func rate(_ camera: SimulatedCamera, asking framesPerSecond: Int) throws -> Double {
            let rate = try #require(try camera.setFrameRate(framesPerSecond))
            return (rate * 1000).rounded() / 1000
        }
        let camera = SimulatedCamera()
        _ = try camera.setFormat(fourCC: 0, width: SimulatedCamera.binnedWidth, height: SimulatedCamera.binnedHeight)
        #expect(try rate(camera, asking: 5) == 5)
        #expect(abs(camera.frameSeconds - 0.2) < 1e-9)
        #expect(try rate(camera, asking: 12) == 10)
        #expect(try rate(camera, asking: 60) == 30)
        _ = try camera.setFrameRate(5)
        _ = try camera.setFormat(fourCC: 0, width: SimulatedCamera.largeWidth, height: SimulatedCamera.largeHeight)
        #expect(abs(camera.frameSeconds - 0.1) < 1e-9, "the 12 MP mode at its own 10 fps")
        #expect(try rate(camera, asking: 5) == 5)
        let csi = SimulatedCamera(style: .exposureInLines)
        #expect(try rate(csi, asking: 5) == 30, "a CSI sensor's rate is its VBLANK's")
    }

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
        #expect(firstEnded > started)
    }

    /// A longer frame (VBLANK, as a long exposure asks) re-arms the timer at the frame that
    /// brings it: from the next frame on the stamps are whole long frames apart.
    @Test func aLongerFrameIsStampedByItsOwnTime() throws {
        let camera = SimulatedCamera(style: .exposureInLines)
        _ = try camera.setFormat(fourCC: 0, width: SimulatedCamera.binnedWidth, height: SimulatedCamera.binnedHeight)
        try camera.start(bufferCount: 4)
        defer { camera.stop() }
        let shortFrame = camera.frameSeconds
        // 720 + 1280 lines: twice the mode's 1000.
        try camera.setControl(REFLEX_V4L2_CID_VBLANK, to: 1280)
        var frames: [(sequence: UInt32, ended: Double, frameSeconds: Double)] = []
        while frames.count < 7 {
            var ready = pollfd(fd: camera.descriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&ready, 1, 1000)
            if let frame = try camera.dequeue() {
                frames.append((frame.sequence, Double(frame.timestampNanoseconds) / 1e9, camera.frameSeconds))
            }
        }
        let longFrame = camera.frameSeconds
        #expect(abs(longFrame - 2 * shortFrame) < 1e-9)
        let rearmed = try #require(frames.firstIndex { $0.frameSeconds == longFrame }, "the long frame came")
        let after = Array(frames[(rearmed + 1)...])
        try #require(after.count >= 2)
        for (earlier, later) in zip(after, after.dropFirst()) {
            let ticks = Double(later.sequence - earlier.sequence)
            #expect(abs(later.ended - earlier.ended - ticks * longFrame) < 1e-6,
                    "frames \(earlier.sequence) and \(later.sequence): \(later.ended - earlier.ended) s apart")
        }
    }
}
