import ReflexCore
import ReflexHardware
import ReflexSystem

/// The simulated sensor's CPU beside the camera's over a stretch of a benchmark: on a board the
/// sensor's frames cost the CPUs nothing, so the simulator's share is printed apart and never
/// counted as the camera's (`SensorTwinCost`).
struct SensorTwinShare {
    private let makingAtStart: Int
    private let drawnAtStart: Int
    private let copiedAtStart: Int
    private let processAtStart: Double
    private let wallAtStart: Double

    /// Starts the stretch now.
    init() {
        makingAtStart = SensorTwinCost.makingNanoseconds.load(ordering: .relaxed)
        drawnAtStart = SensorTwinCost.framesDrawn.load(ordering: .relaxed)
        copiedAtStart = SensorTwinCost.framesCopied.load(ordering: .relaxed)
        processAtStart = ChildCPU.ownSeconds()
        wallAtStart = monotonicSeconds()
    }

    /// The twin's CPU and the rest of the process's since the start, each as seconds and as a
    /// share of one core; the frames it drew and copied; the memory its reels hold.
    func describe(_ rendering: SimulatedCamera.Rendering) -> String {
        let wall = max(monotonicSeconds() - wallAtStart, 1e-9)
        let twin = Double(SensorTwinCost.makingNanoseconds.load(ordering: .relaxed) - makingAtStart) / 1e9
        let camera = max(ChildCPU.ownSeconds() - processAtStart - twin, 0)
        let drawn = SensorTwinCost.framesDrawn.load(ordering: .relaxed) - drawnAtStart
        let copied = SensorTwinCost.framesCopied.load(ordering: .relaxed) - copiedAtStart
        func share(_ seconds: Double) -> String {
            Formatting.fixed(seconds, 2, width: 0) + " s (" + Formatting.fixed(100 * seconds / wall, 0, width: 0) + " % of one core)"
        }
        let how = switch rendering {
        case .everyFrame: "each frame drawn"
        case .reel(let frames):
            "a reel of \(frames) frames drawn once, then copied as DMA would fill a buffer; "
                + "its \(SensorTwinShare.megabytes(SensorTwinShare.reelBytes)) MB not the camera's"
        }
        return "the sensor twin (\(how)): frames drawn \(drawn), copied \(copied), \(share(twin)) of CPU, "
            + "apart from the camera's \(share(camera)) over \(Formatting.fixed(wall, 1, width: 0)) s"
    }

    /// Bytes the simulated sensors' reels hold now (part of the process's memory, not the camera's).
    static var reelBytes: Int { SensorTwinCost.reelBytes.load(ordering: .relaxed) }

    static func megabytes(_ bytes: Int) -> String { Formatting.fixed(Double(bytes) / 1e6, 1, width: 0) }
}
