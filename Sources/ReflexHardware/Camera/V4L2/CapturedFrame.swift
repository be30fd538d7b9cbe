import ReflexCore
import ReflexISP

/// One dequeued frame: where its bytes are until it is given back, and what the kernel
/// says of it.
/// (Not Sendable: the bytes belong to the thread that dequeued them until it requeues.)
public struct CapturedFrame {
    public let bufferIndex: Int
    public let bytes: UnsafeRawBufferPointer
    /// The driver's frame counter: a gap means frames were dropped.
    public let sequence: UInt32
    /// When the frame was captured, kernel monotonic clock, nanoseconds.
    public let timestampNanoseconds: Int64
    /// What the timestamp marks: the frame's end (most drivers) or its exposure's start.
    public let timestampMark: ShutterMoment.TimestampMark
    /// The driver flagged the data as damaged.
    public let corrupted: Bool
    /// The exposure the sensor says this frame had (its own per-frame report: read from
    /// `embeddedData`, or given by a twin whose controls have no registers); nil when the
    /// sensor says nothing, and the control history's account stands.
    public var sensorExposure: ExposureSetting? = nil
    /// The sensor's embedded data for this frame (CCS register lines), where it sends some:
    /// the camera session reads the frame's exposure from it into `sensorExposure`.
    public var embeddedData: UnsafeRawBufferPointer? = nil
}
