import ReflexHardware
import ReflexISP

/// A camera frame copied for the preview, with what the ISP needs to render it.
public final class PreviewFrame: @unchecked Sendable {
    public private(set) var bytes: UnsafeMutableRawPointer?
    public private(set) var capacity = 0
    public private(set) var byteCount = 0
    public private(set) var width = 0
    public private(set) var height = 0
    public private(set) var bytesPerLine = 0
    /// What the bytes are.
    public enum PixelKind: Sendable, Equatable {
        case bayer(RawFormat)
        case yuyv
        /// A half-size XRGB8888 picture (a decoded MJPEG frame): only scaling is left.
        case halfSizeXRGB
    }

    public private(set) var kind: PixelKind = .yuyv
    public var rawFormat: RawFormat? {
        if case .bayer(let format) = kind { return format }
        return nil
    }
    public private(set) var parameters: ISPParameters?
    public private(set) var sequence: UInt32 = 0
    /// The magnification the camera itself had for this frame (its zoom control); the ISP
    /// crops only for the rest of the zoom asked for.
    public private(set) var sensorZoom = 1.0
    /// When the sensor made it (the monotonic clock's nanoseconds, as V4L2 stamps buffers; 0:
    /// unknown), so the time to a phone's screen can be measured from it.
    public private(set) var timestampNanoseconds: Int64 = 0

    public init() {}

    deinit { bytes?.deallocate() }

    /// The frame's size in sensor pixels, which the ISP is sized by: a half-size picture
    /// stands for twice its size.
    public var sensorWidth: Int { kind == .halfSizeXRGB ? width * 2 : width }
    public var sensorHeight: Int { kind == .halfSizeXRGB ? height * 2 : height }

    public var layout: RawLayout? {
        rawFormat.map { RawLayout(width: width, height: height, bytesPerLine: bytesPerLine, format: $0) }
    }

    /// Memory for `count` bytes, kept: it grows only when a larger format starts streaming.
    func reserve(_ count: Int) -> UnsafeMutableRawPointer {
        if count > capacity {
            bytes?.deallocate()
            bytes = .allocate(byteCount: count, alignment: 64)
            capacity = count
        }
        return bytes!
    }

    /// Copies a frame in.
    public func fill(_ source: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerLine: Int, kind: PixelKind,
                     parameters: ISPParameters?, sequence: UInt32, sensorZoom: Double, timestampNanoseconds: Int64 = 0) {
        let target = reserve(source.count)
        if let base = source.baseAddress { target.copyMemory(from: base, byteCount: source.count) }
        describe(byteCount: source.count, width: width, height: height, bytesPerLine: bytesPerLine, kind: kind,
                 parameters: parameters, sequence: sequence, sensorZoom: sensorZoom, timestampNanoseconds: timestampNanoseconds)
    }

    /// Says what the bytes (already in place) are.
    func describe(byteCount: Int, width: Int, height: Int, bytesPerLine: Int, kind: PixelKind, parameters: ISPParameters?,
                  sequence: UInt32, sensorZoom: Double, timestampNanoseconds: Int64 = 0) {
        self.timestampNanoseconds = timestampNanoseconds
        self.byteCount = byteCount
        self.width = width
        self.height = height
        self.bytesPerLine = bytesPerLine
        self.kind = kind
        self.parameters = parameters
        self.sequence = sequence
        self.sensorZoom = sensorZoom
    }
}
