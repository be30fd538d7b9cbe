import ReflexTestSupport
import ReflexCore
import ReflexHardware
import ReflexSystem
@testable import ReflexRuntime

/// The sensor thread on the simulated sensor in its binned mode, its frames made one at a
/// time by the test (`SensorStepper`) and stamped with the stepper's clock, which the thread
/// reckons on too: it sees the same frames at the same moments on any machine, however busy.
final class SteppedPipeline {
    let stepper = SensorStepper()
    let pipeline: SensorPipeline
    /// What must hold before the next frame is made, besides the last one's delivery (a
    /// consumer of the frames that must keep up: the movie thread's encoder).
    var caughtUp: () -> Bool = { true }

    /// The simulated sensor (`binned`: its 640x360 mode), or with `videoFile` the sensor
    /// playing that file at its own size.
    init(settings: CameraSettings = CameraSettings(), style: SimulatedCamera.Style = .absoluteExposure,
         binned: Bool = true, videoFile: String? = nil, log: @escaping SensorPipeline.Log) {
        let stepper = self.stepper
        let choice = videoFile.map { CameraChoice(source: .videoFile(path: $0, pace: .stepped(stepper))) }
            ?? CameraChoice(source: .simulated(style, pace: .stepped(stepper)),
                            width: binned ? SimulatedCamera.binnedWidth : nil,
                            height: binned ? SimulatedCamera.binnedHeight : nil)
        pipeline = SensorPipeline(settings: settings, calibration: .simulated, choice: choice, clock: .manual(stepper.clock),
                                  log: log)
    }

    /// The next frames, one at a time, each waited for until the sensor thread has published
    /// it to the preview and `caughtUp` holds (false if one never came within minutes: the
    /// thread is stuck).
    @discardableResult
    func step(frames count: Int = 1) -> Bool {
        for _ in 0..<count {
            let before = pipeline.preview.published
            stepper.step()
            guard waitUntil({ pipeline.preview.published > before && caughtUp() }) else { return false }
        }
        return true
    }

    /// Frame by frame until `condition` holds (true) or `limit` frames were made (false).
    /// (A step ends when the frame reached the preview; what the thread does with it after
    /// that, its report, may come a moment later: the last frame's is waited for.)
    func step(until condition: () -> Bool, frames limit: Int) -> Bool {
        for _ in 0..<limit {
            if condition() { return true }
            guard step() else { return false }
        }
        return waitUntil(condition)
    }
}
