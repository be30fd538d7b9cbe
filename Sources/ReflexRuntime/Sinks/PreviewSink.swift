import ReflexHardware
import ReflexISP
import ReflexSystem
import Synchronization

/// The preview's sink: the newest frame for the realtime loop, copied (so the camera's
/// buffer goes straight back to the driver and no lifetime crosses threads) through a triple
/// buffer; newest wins, and a frame the loop had no time for is rightly dropped. Motion-JPEG
/// is decoded here, on the sensor thread, at half size, so the loop only scales. An eventfd
/// wakes the loop's poll when a frame comes.
///
/// The analysis stream is a second one (`name` "analysis"): the same newest frame for the
/// analysis thread, which renders it at its own size; there a frame overwritten before it was
/// taken is counted as lost (`framesLost`), since the analysis should see every frame it can.
public final class PreviewSink: FrameSink, @unchecked Sendable {
    public let name: String
    private let frames = TripleBuffer { PreviewFrame() }
    private let wakeUp = EventSignal()
    private var decoder: JPEGPreviewDecoder?
    private var decodeFailureReported = false
    private let log: @Sendable (String) -> Void
    private let publishedCount = Atomic<Int>(0)
    /// Frames published so far.
    public var published: Int { publishedCount.load(ordering: .relaxed) }
    private let takenCount = Atomic<Int>(0)
    private let countsLosses: Bool
    private let paused = Atomic<Bool>(false)
    /// A paused sink takes no frame (the analysis while auto-zoom is off: no copy a frame).
    public var isPaused: Bool {
        get { paused.load(ordering: .relaxed) }
        set { paused.store(newValue, ordering: .relaxed) }
    }

    /// `countsLosses`: frames published and never taken are losses (the analysis), or not
    /// (the preview, where only the newest frame matters).
    public init(name: String = "preview", countsLosses: Bool = false, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.name = name
        self.countsLosses = countsLosses
        self.log = log
    }

    public var framesLost: Int {
        guard countsLosses else { return 0 }
        // The one published and not yet taken is not lost yet.
        return max(published - takenCount.load(ordering: .relaxed) - (frames.hasNewer ? 1 : 0), 0)
    }

    // MARK: the sensor thread's side

    public func deliver(_ frame: SensorFrame) {
        guard frame.isComplete, !paused.load(ordering: .relaxed) else { return }
        let mode = frame.mode
        if mode.isMotionJPEG {
            guard decodeHalfSize(frame) else { return }
        } else {
            frames.writable.fill(frame.bytes, width: mode.width, height: mode.height, bytesPerLine: mode.bytesPerLine,
                                 kind: mode.rawFormat.map { .bayer($0) } ?? .yuyv, parameters: frame.parameters,
                                 sequence: frame.sequence, sensorZoom: frame.sensorZoom, timestampNanoseconds: frame.timestampNanoseconds)
        }
        frames.publish()
        publishedCount.wrappingAdd(1, ordering: .relaxed)
        wakeUp.signal()
    }

    /// A damaged JPEG (UVC cameras send some) is skipped, and said once a stream.
    private func decodeHalfSize(_ frame: SensorFrame) -> Bool {
        if decoder == nil { decoder = JPEGPreviewDecoder() }
        guard let decoder else { return false }
        let (width, height) = JPEGPreviewDecoder.halfSize(width: frame.mode.width, height: frame.mode.height)
        let target = frames.writable
        let pixels = target.reserve(width * height * 4)
        switch decoder.decodeHalfSize(frame.bytes, width: frame.mode.width, height: frame.mode.height, into: pixels) {
        case .success:
            target.describe(byteCount: width * height * 4, width: width, height: height, bytesPerLine: width * 4,
                            kind: .halfSizeXRGB, parameters: nil, sequence: frame.sequence, sensorZoom: frame.sensorZoom,
                            timestampNanoseconds: frame.timestampNanoseconds)
            return true
        case .failure(let error):
            if !decodeFailureReported { log("camera: a Motion-JPEG frame could not be decoded (\(error))") }
            decodeFailureReported = true
            return false
        }
    }

    /// A new stream: its first damaged frame is said again.
    public func streamStarted() { decodeFailureReported = false }

    // MARK: the realtime loop's side

    public var wakeDescriptor: Int32 { wakeUp.descriptor }

    /// Clears the wake-up (after poll said it was readable).
    public func drainWake() { wakeUp.drain() }

    /// The newest frame, if one came since the last call.
    public func takeFrame() -> PreviewFrame? {
        guard frames.takeNewest() else { return nil }
        takenCount.wrappingAdd(1, ordering: .relaxed)
        return frames.current
    }

    /// The frame taken last (to render again when only the interface changed).
    public var currentFrame: PreviewFrame? { frames.current.byteCount > 0 ? frames.current : nil }
}
