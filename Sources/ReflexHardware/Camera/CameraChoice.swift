/// Which camera the session streams, and in which mode: what the choice of camera on the
/// control path says.
public struct CameraChoice: Sendable, Equatable {
    public enum Source: Sendable, Equatable {
        /// The machine's V4L2 cameras: the device at `path`, or the first that streams a
        /// format Reflex shows.
        case v4l2(devFolder: String, path: String? = nil)
        /// The simulated sensor, with one of the two kinds of exposure control, its frames
        /// paced by a timer or by a test, damaged as `faults` says (for tests of bad hardware),
        /// its scene seen through a lens of `magnification` (one of a board's lenses), each
        /// frame drawn or copied from a reel drawn once (`rendering`: the benchmarks' twin).
        case simulated(SimulatedCamera.Style, pace: SimulatedCamera.Pace = .realTime, faults: Faults = Faults(),
                       magnification: Double = 1, rendering: SimulatedCamera.Rendering = .everyFrame)
        /// The simulated sensor playing a video file (any FFmpeg reads) at its own rate.
        case videoFile(path: String, pace: SimulatedCamera.Pace = .realTime)
    }

    /// The simulated sensor's damage, compared by identity (one test's faults are one value).
    public struct Faults: Sendable, Equatable {
        public let damage: (any FrameFaults)?
        public init(_ damage: (any FrameFaults)? = nil) { self.damage = damage }
        public static func == (a: Faults, b: Faults) -> Bool { a.damage === b.damage }
    }

    public var source: Source
    /// The mode asked for; nil: the board's preview size and frame rate.
    public var width: Int?
    public var height: Int?
    public var framesPerSecond: Int?

    public init(source: Source, width: Int? = nil, height: Int? = nil, framesPerSecond: Int? = nil) {
        self.source = source
        self.width = width
        self.height = height
        self.framesPerSecond = framesPerSecond
    }
}
