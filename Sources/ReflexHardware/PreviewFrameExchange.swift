import ReflexCore
import ReflexISP
import ReflexSystem
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

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

    init() {}

    deinit { bytes?.deallocate() }

    /// The frame's size in sensor pixels, which the ISP is sized by: a half-size picture
    /// stands for twice its size.
    public var sensorWidth: Int { kind == .halfSizeXRGB ? width * 2 : width }
    public var sensorHeight: Int { kind == .halfSizeXRGB ? height * 2 : height }

    public var layout: RawLayout? {
        rawFormat.map { RawLayout(width: width, height: height, bytesPerLine: bytesPerLine, format: $0) }
    }

    /// Copies a frame in. Memory grows only when a larger format starts streaming.
    func fill(_ source: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerLine: Int, kind: PixelKind,
              parameters: ISPParameters?, sequence: UInt32, sensorZoom: Double) {
        if source.count > capacity {
            bytes?.deallocate()
            bytes = .allocate(byteCount: source.count, alignment: 64)
            capacity = source.count
        }
        if let base = source.baseAddress { bytes!.copyMemory(from: base, byteCount: source.count) }
        byteCount = source.count
        self.width = width
        self.height = height
        self.bytesPerLine = bytesPerLine
        self.kind = kind
        self.parameters = parameters
        self.sequence = sequence
        self.sensorZoom = sensorZoom
    }
}

/// What the sensor side tells the screen: whether there is a camera, the exposure in use,
/// the newest histogram. Plain values, so it crosses threads without allocating.
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
    /// The sensor's largest frame, in pixels (what a RAW shot will hold).
    public var sensorPixels = 1920 * 1080
    public var histogram = SIMD64<UInt32>()
    public var hasHistogram = false

    public init() {}
}

/// The sensor thread's hand-off to the realtime loop: the newest frame (a copy, so the camera's
/// buffer goes straight back to the driver and no lifetime crosses threads) and the newest
/// report, each through a triple buffer; an eventfd wakes the loop's poll when either moves.
public final class PreviewFrameExchange: @unchecked Sendable {
    private let frames = TripleBuffer { PreviewFrame() }
    private let reports = TripleBuffer { SensorReport() }
    /// The zoom the screen asks for (a Double's bits): one value, the newest wins.
    private let zoomRequest = Atomic<UInt64>(1.0.bitPattern)
    /// Readable when something new was published.
    private let wakeUp = EventSignal()
    public var wakeDescriptor: Int32 { wakeUp.descriptor }

    public init() {}

    // The sensor thread's side.

    public func publishFrame(_ source: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerLine: Int,
                      kind: PreviewFrame.PixelKind, parameters: ISPParameters?, sequence: UInt32,
                      sensorZoom: Double = 1) {
        frames.writable.fill(source, width: width, height: height, bytesPerLine: bytesPerLine, kind: kind,
                             parameters: parameters, sequence: sequence, sensorZoom: sensorZoom)
        frames.publish()
        wakeUp.signal()
    }

    /// The zoom the screen wants now (1 = none).
    public var requestedZoom: Double { Double(bitPattern: zoomRequest.load(ordering: .relaxed)) }

    public func publishReport(_ report: SensorReport) {
        reports.publish(report)
        wakeUp.signal()
    }

    // The realtime loop's side.

    /// Asks the sensor thread for a zoom; it goes to the camera's zoom control where there is
    /// one, from a coming frame (never waits).
    public func requestZoom(_ factor: Double) {
        zoomRequest.store(factor.bitPattern, ordering: .relaxed)
    }

    /// Clears the wake-up (after poll said it was readable).
    public func drainWake() { wakeUp.drain() }

    /// The newest frame, if one came since the last call.
    public func takeFrame() -> PreviewFrame? { frames.takeNewest() ? frames.current : nil }

    /// The frame taken last (to render again when only the interface changed).
    public var currentFrame: PreviewFrame? { frames.current.byteCount > 0 ? frames.current : nil }

    public func takeReport() -> SensorReport? { reports.takeNewest() ? reports.current : nil }

    /// The report taken last (or the newest): where a new realtime loop starts, after the
    /// previous one on another display ended (one reader at a time).
    public func latestReport() -> SensorReport {
        _ = reports.takeNewest()
        return reports.current
    }
}
