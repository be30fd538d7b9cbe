import ReflexCore
import ReflexHardware
import ReflexISP
import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// A still mode's lag on the simulated sensor (a 640x360 binned preview, stills at its full
/// 1280x720): the time from a press to the still frame in hand and to the preview streaming
/// again, beside the zero-lag ring's (the frame under way at the press: no wait) and one
/// preview frame's period. Boards whose link can carry the full mode at the preview's rate
/// stream it instead (`stills = stream`).
struct StillModeBench {
    let switches: Int

    func run() throws {
        var calibration = SensorCalibration.simulated
        (calibration.previewWidth, calibration.previewHeight) = (SimulatedCamera.binnedWidth, SimulatedCamera.binnedHeight)
        (calibration.stillWidth, calibration.stillHeight) = (SimulatedCamera.width, SimulatedCamera.height)
        let session = CameraSession(choice: CameraChoice(source: .simulated(.absoluteExposure)), calibration: calibration,
                                    log: { _ in })
        guard try session.start() else { throw BenchError("the simulated sensor did not start") }
        defer { session.stop() }
        let copy = FrameCopy(reserving: SimulatedCamera.width * SimulatedCamera.height * 2)
        var inHand: [Double] = [], back: [Double] = []
        for _ in 0..<switches {
            _ = firstFrame(session)  // a preview frame between presses, as when shooting
            let press = monotonicSeconds()
            let frameInHand = try session.captureStill(width: SimulatedCamera.width, height: SimulatedCamera.height,
                                                       exposure: ExposureSetting(exposure: 0.01, analogGain: 1), parameters: nil,
                                                       sensorZoom: 1, skipping: calibration.stillSkipFrames, into: copy)
            guard firstFrame(session) else { throw BenchError("the preview did not come back after a still") }
            inHand.append(frameInHand - press)
            back.append(monotonicSeconds() - press)
        }
        func median(_ values: [Double]) -> String { Formatting.fixed(values.sorted()[values.count / 2] * 1000, 1, width: 0) }
        let period = 1000.0 / Double(SimulatedCamera.framesPerSecond)
        print("Still mode: \(switches) switches from the \(SimulatedCamera.binnedWidth)x\(SimulatedCamera.binnedHeight) preview "
              + "to \(SimulatedCamera.width)x\(SimulatedCamera.height) and back on the simulated sensor (30 fps)")
        print("  press → still frame in hand: median \(median(inHand)) ms; → the preview's next frame: median \(median(back)) ms")
        print("  reference: the zero-lag ring's photo is the frame under way at the press (0 ms to wait beyond it); "
              + "one preview frame is \(Formatting.fixed(period, 1, width: 0)) ms")
    }

    /// Waits for one frame of the stream and gives it back; false after a second without one.
    private func firstFrame(_ session: CameraSession) -> Bool {
        let deadline = monotonicSeconds() + 1
        while monotonicSeconds() < deadline {
            var ready = pollfd(fd: session.descriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&ready, 1, 100)
            if let frame = try? session.nextFrame() {
                try? session.giveBack(frame)
                return true
            }
        }
        return false
    }
}
