import ReflexCore
import ReflexHardware

/// Where a board's lenses' cameras are. On the machine's V4L2 nodes, each found by the name
/// its lens file gives (a node's path, its sensor, card or bus), present only when it is
/// there. Or on the simulated sensor, where every lens is present: the same scene seen at the
/// lens's magnification, each lens a camera of its own that streams beside another (a twin of
/// a board of several cameras for hosts without them, and the soak's lens switches).
///
/// A camera is known by a name (`find` gives it, `source(for:)` opens it): a node's path, or
/// `simulated-` and the lens's magnification.
enum LensCameraPlace: Sendable {
    case v4l2(devFolder: String)
    case simulated(SimulatedCamera.Style, pace: SimulatedCamera.Pace, rendering: SimulatedCamera.Rendering)

    private static let simulatedPrefix = "simulated-"

    /// The place of `source`'s cameras; nil where a board's lenses mean nothing (a video file).
    init?(_ source: CameraChoice.Source) {
        switch source {
        case .v4l2(let folder, _): self = .v4l2(devFolder: folder)
        case .simulated(let style, let pace, _, _, let rendering): self = .simulated(style, pace: pace, rendering: rendering)
        case .videoFile: return nil
        }
    }

    /// The lenses whose cameras are present, each with its camera's name, and those missing,
    /// said (for the log).
    func find(_ lenses: [BoardLens]) -> (present: [(lens: BoardLens, camera: String)], missing: [String]) {
        switch self {
        case .simulated:
            return (lenses.map { ($0, LensCameraPlace.simulatedPrefix + String($0.description.magnification)) }, [])
        case .v4l2(let devFolder):
            let candidates = CameraMatcher.candidates(devFolder: devFolder)
            var present: [(lens: BoardLens, camera: String)] = []
            var missing: [String] = []
            for lens in lenses {
                if let path = CameraMatcher.match(lens.description.camera, in: candidates) {
                    present.append((lens, path))
                } else {
                    missing.append("\(lens.description.role.rawValue) (its camera \"\(lens.description.camera)\" not found)")
                }
            }
            return (present, missing)
        }
    }

    /// What streams the camera `find` named `camera`.
    func source(for camera: String) -> CameraChoice.Source {
        switch self {
        case .v4l2(let devFolder):
            return .v4l2(devFolder: devFolder, path: camera)
        case .simulated(let style, let pace, let rendering):
            let magnification = Double(camera.dropFirst(LensCameraPlace.simulatedPrefix.count)) ?? 1
            return .simulated(style, pace: pace, magnification: magnification, rendering: rendering)
        }
    }
}
