import ReflexISP
#if canImport(Glibc)
import Glibc
#endif

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

    deinit { release() }

    /// Room for `count` bytes, kept: it grows only when a larger mode starts streaming.
    /// Mapped straight from the kernel (not malloc's heap), so `release` gives a frame's
    /// megabytes back to the system at once, whatever malloc would keep.
    public func reserve(_ count: Int) {
        guard count > bytes.count else { return }
        release()
        guard let mapped = mmap(nil, count, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              mapped != MAP_FAILED else {
            // As an allocation that fails: the camera cannot go on without its frames' memory.
            fatalError("no memory for a frame of \(count) bytes: \(String(cString: strerror(errno)))")
        }
        bytes = UnsafeMutableRawBufferPointer(start: mapped, count: count)
    }

    /// Gives the memory back to the system (memory pressure): the next `fill` maps it again.
    /// Only its owner calls this, with no one reading it.
    public func release() {
        if let start = bytes.baseAddress { munmap(start, bytes.count) }
        bytes = UnsafeMutableRawBufferPointer(start: nil, count: 0)
        byteCount = 0
    }

    /// Whether it holds memory now.
    public var isReserved: Bool { bytes.count > 0 }

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
