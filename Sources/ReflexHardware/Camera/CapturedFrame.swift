import ReflexCore

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
}
