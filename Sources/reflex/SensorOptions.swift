import ArgumentParser
import ReflexHardware
import ReflexRuntime
import ReflexISP

/// Which camera a command uses and the board that describes it (`reflex run`, `reflex capture`).
struct SensorOptions: ParsableArguments {
    @Option(help: "The board's description folder (default: $REFLEX_BOARD_DIR, else /etc/reflex/board, else share/reflex/board beside the binary's folder).")
    var board: String?

    @Option(help: """
        Where frames come from: v4l2 (the machine's camera, the default), sim (the simulated sensor), \
        sim-csi (the simulated sensor as a CSI sensor: exposure in lines, PIXEL_RATE and HBLANK, each frame's exposure in its embedded data) or \
        file:PATH (the simulated sensor playing a video file at its own rate, over and over).
        """)
    var sensor: SensorChoice = .v4l2

    enum SensorChoice: ExpressibleByArgument, Equatable {
        case v4l2, sim, simCSI
        case file(String)

        init?(argument: String) {
            switch argument {
            case "v4l2": self = .v4l2
            case "sim": self = .sim
            case "sim-csi": self = .simCSI
            default:
                guard argument.hasPrefix("file:"), argument.count > 5 else { return nil }
                self = .file(String(argument.dropFirst(5)))
            }
        }

        var defaultValueDescription: String {
            switch self {
            case .v4l2: "v4l2"
            case .sim: "sim"
            case .simCSI: "sim-csi"
            case .file(let path): "file:" + path
            }
        }

        static var allValueStrings: [String] { ["v4l2", "sim", "sim-csi", "file:PATH"] }
    }

    @Option(help: "Where to look for V4L2 cameras.")
    var videoDir = "/dev"

    @Option(help: "The V4L2 capture node to stream (default: the first that streams a format Reflex shows).")
    var camera: String?

    /// The board's folder, resolved.
    var boardFolder: String { BoardFolder.resolve(flag: board) }

    /// Which camera the command line chose.
    var cameraChoice: CameraChoice {
        switch sensor {
        case .sim: CameraChoice(source: .simulated(.absoluteExposure))
        case .simCSI: CameraChoice(source: .simulated(.exposureInLines))
        case .v4l2: CameraChoice(source: .v4l2(devFolder: videoDir, path: camera))
        case .file(let path): CameraChoice(source: .videoFile(path: path))
        }
    }

    /// The sensor's calibration (the simulated sensor's own, or the board's), and where it came from.
    var calibration: (SensorCalibration, String) {
        sensor != .v4l2 ? (SensorCalibration.simulated, "board: the simulated sensor's own calibration")
            : BoardFolder.sensorCalibration(in: boardFolder)
    }
}
