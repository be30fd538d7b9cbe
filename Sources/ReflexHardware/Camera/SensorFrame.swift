import ReflexCore
import ReflexISP

/// A frame as the session hands it to its sinks: the camera's own bytes, valid only for the
/// call (a sink copies what it keeps, so the buffer goes straight back to the driver), and
/// what is known of it.
public struct SensorFrame {
    public let bytes: UnsafeRawBufferPointer
    public let mode: CameraSession.Mode
    /// The driver's frame counter: a gap means the sensor dropped frames.
    public let sequence: UInt32
    /// When it was captured, kernel monotonic clock, nanoseconds.
    public let timestampNanoseconds: Int64
    public let timestampMark: ShutterMoment.TimestampMark
    /// The exposure it was taken with (from the control history).
    public let exposure: ExposureSetting
    /// How the ISP renders it (nil when not raw).
    public let parameters: ISPParameters?
    /// The magnification the camera's own zoom gave it.
    public let sensorZoom: Double

    public init(bytes: UnsafeRawBufferPointer, mode: CameraSession.Mode, sequence: UInt32, timestampNanoseconds: Int64,
                timestampMark: ShutterMoment.TimestampMark = .endOfFrame,
                exposure: ExposureSetting, parameters: ISPParameters?, sensorZoom: Double) {
        self.bytes = bytes
        self.mode = mode
        self.sequence = sequence
        self.timestampNanoseconds = timestampNanoseconds
        self.timestampMark = timestampMark
        self.exposure = exposure
        self.parameters = parameters
        self.sensorZoom = sensorZoom
    }

    /// The whole frame came (a short one, from a poor link, is not shown or kept).
    public var isComplete: Bool { mode.isMotionJPEG ? bytes.count > 0 : bytes.count >= mode.frameBytes }
}
