import ReflexCore
import ReflexHardware
import ReflexSystem

/// The simulated sensor's CPU beside the camera's over a stretch of a benchmark: on a board the
/// sensor's frames cost the CPUs nothing, so the simulator's share is printed apart and never
/// counted as the camera's.
struct SensorTwinShare {
    private let twinAtStart: Int
    private let processAtStart: Double
    private let wallAtStart: Double

    /// Starts the stretch now.
    init() {
        twinAtStart = SimulatedCamera.makingFramesNanoseconds.load(ordering: .relaxed)
        processAtStart = ChildCPU.ownSeconds()
        wallAtStart = monotonicSeconds()
    }

    /// The twin's CPU and the rest of the process's since the start, each as seconds and as a
    /// share of one core.
    func describe(_ rendering: SimulatedCamera.Rendering) -> String {
        let wall = max(monotonicSeconds() - wallAtStart, 1e-9)
        let twin = Double(SimulatedCamera.makingFramesNanoseconds.load(ordering: .relaxed) - twinAtStart) / 1e9
        let camera = max(ChildCPU.ownSeconds() - processAtStart - twin, 0)
        func share(_ seconds: Double) -> String {
            Formatting.fixed(seconds, 2, width: 0) + " s (" + Formatting.fixed(100 * seconds / wall, 0, width: 0) + " % of one core)"
        }
        let how = switch rendering {
        case .everyFrame: "each frame drawn"
        case .reel(let frames): "a reel of \(frames) frames drawn once, then copied as DMA would fill a buffer"
        }
        return "the sensor twin (\(how)): \(share(twin)) of CPU, apart from the camera's \(share(camera)) "
            + "over \(Formatting.fixed(wall, 1, width: 0)) s"
    }
}
