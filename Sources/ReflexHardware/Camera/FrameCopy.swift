import ReflexISP

/// A copy of one frame and what is known of it, in memory allocated once and reused: a slot
/// of a frame queue, of the zero-shutter-lag ring, a photo on its way to the card. Whoever
/// holds it reads it; the sensor thread fills it only when it is handed back.
public final class FrameCopy: @unchecked Sendable {
    public private(set) var bytes = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    public private(set) var byteCount = 0
    public private(set) var mode: CameraSession.Mode?
    public private(set) var sequence: UInt32 = 0
    public private(set) var timestampNanoseconds: Int64 = 0
    public private(set) var exposure = ExposureSetting(exposure: 0, analogGain: 1)
    public private(set) var parameters: ISPParameters?
    public private(set) var sensorZoom = 1.0

    public init(reserving count: Int = 0) { reserve(count) }

    deinit { bytes.deallocate() }

    /// Room for `count` bytes, kept: it grows only when a larger mode starts streaming.
    public func reserve(_ count: Int) {
        guard count > bytes.count else { return }
        bytes.deallocate()
        bytes = .allocate(byteCount: count, alignment: 64)
    }

    /// Copies `frame` in (growing the room if the mode grew).
    public func fill(_ frame: SensorFrame) {
        reserve(frame.bytes.count)
        if let source = frame.bytes.baseAddress { bytes.baseAddress!.copyMemory(from: source, byteCount: frame.bytes.count) }
        byteCount = frame.bytes.count
        mode = frame.mode
        sequence = frame.sequence
        timestampNanoseconds = frame.timestampNanoseconds
        exposure = frame.exposure
        parameters = frame.parameters
        sensorZoom = frame.sensorZoom
    }

    /// The frame's bytes.
    public var frame: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[0..<byteCount]) }
}
