import ReflexCore
import ReflexHardware
import ReflexISP

/// What the sensor thread tells the rest of the camera: whether there is a camera, the
/// exposure in use, the newest histogram, what the camera can do and the settings fitted to
/// it. Plain values, so it crosses threads without allocating.
public struct SensorReport: Sendable, Equatable {
    public enum Status: Sendable, Equatable {
        /// Still looking (the first seconds after start).
        case starting
        case noCamera
        case streaming
        /// Was streaming; waiting for it to come back.
        case lost
    }

    public var status: Status = .starting
    public var exposureSeconds = 1.0 / 60
    public var iso = 100
    public var kelvin = 5500
    /// Where the lens is (read from its focus control; infinity without one).
    public var focus = FocusPosition.infinity
    /// The picture's width and height (for the viewfinder's aspect).
    public var width = 16
    public var height = 9
    /// What the dials may offer on this camera (nil until a camera has streamed).
    public var limits: SensorLimits?
    /// The settings as fitted to this camera's limits (by the sensor thread, their one
    /// fitter): the dials start from these when a camera comes.
    public var settings = CameraSettings()
    /// The pixels a photo holds (the still mode's, or the stream's): what a RAW shot's size follows.
    public var photoPixels = 1920 * 1080
    public var histogram = SIMD64<UInt32>()
    public var hasHistogram = false
    /// Streams started so far: it grows when the camera streams again (another mode,
    /// another camera, or the same one back).
    public var streamCount = 0
    /// Photos come from a switch to the still mode (a held shutter takes one, not a burst:
    /// each switch costs a few frames).
    public var stillsBySwitching = false
    /// Frames the sinks that must not lose any had to drop, all together.
    public var framesLost = 0
    /// Shutter presses the sensor thread has taken.
    public var captureRequestsTaken = 0
    /// Photos whose frame went to the photo thread.
    public var photosTaken = 0
    /// Presses cancelled under extreme memory pressure before their frame was taken, in all.
    public var photosCancelled = 0
    /// How the newest exposure bracket went.
    public var lastBracket: BracketOutcome?

    /// The board's lenses whose cameras are present, a bit each in LensDescription.Role's
    /// order (0 on a board of one camera).
    public var lensesPresent: UInt8 = 0
    /// The lens streaming now (nil on a board of one camera).
    public var activeLens: LensDescription.Role?
    /// The streaming lens's f-number, for the HUD (nil: the board's one sensor's).
    public var fNumber: Double?

    public init() {}
}

extension SensorReport {
    /// A stream of `session`'s began in `mode`: what the camera can do, where its lens is,
    /// the picture's size, and the lens's f-number (nil: the board's one sensor's).
    mutating func streamStarted(_ session: CameraSession, mode: CameraSession.Mode, fNumber: Double?) {
        (limits, focus, photoPixels, streamCount) = (session.limits, session.focus, session.photoPixels, session.streamCount)
        (width, height, self.fNumber) = (mode.width, mode.height, fNumber)
    }

    /// A frame streamed: the counts, and with a `metered` frame the controller's exposure,
    /// colour and `histogram`, taken in. Whether anything changed (the report then goes out).
    /// `capturesReported` is the captures count last sent, brought up to date.
    mutating func streamed(metered: Bool, framesLost: Int, photosTaken: Int, lastBracket: BracketOutcome?, photosCancelled: Int,
                           capturesReported: inout Int, controller: ExposureController?, histogram: [UInt32]) -> Bool {
        let changed = status != .streaming || metered || framesLost != self.framesLost
            || captureRequestsTaken != capturesReported || photosTaken != self.photosTaken
            || photosCancelled != self.photosCancelled || lastBracket != self.lastBracket
        guard changed else { return false }
        self.lastBracket = lastBracket
        status = .streaming
        (self.framesLost, self.photosTaken, self.photosCancelled) = (framesLost, photosTaken, photosCancelled)
        capturesReported = captureRequestsTaken
        if let controller, controller.meters {
            exposureSeconds = controller.requested.exposure
            iso = controller.iso
            if metered {
                kelvin = controller.kelvin
                for bin in 0..<min(FrameStatistics.histogramBins, 64) { self.histogram[bin] = histogram[bin] }
                hasHistogram = true
            }
        }
        return true
    }
}
