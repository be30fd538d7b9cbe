import ReflexCore
import ReflexFormats
import ReflexISP
import ReflexSystem
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The remote's live view: the sensor's newest picture, rendered by a preview ISP of its own
/// at `longestSide` and made a JPEG, at most `framesPerSecond`, handed to every phone watching
/// (`watch`). It costs nothing while nobody watches: its sink is paused (the sensor thread
/// copies nothing), and its thread (`reflex-live`, background priority) sleeps. While phones
/// watch, the sink is opened for one frame at a time, so the sensor thread copies only the
/// frames that are sent.
public final class LiveView: @unchecked Sendable {
    public static let longestSide = 640
    public static let framesPerSecond = 30.0
    public static let quality = 70
    /// Attached to the sensor's mailbox by the caller.
    public let sink = PreviewSink(name: "remote")
    private let thread = WorkerThread(name: "reflex-live", priority: .background)
    private let log: @Sendable (String) -> Void
    private let receivers = Mutex<(next: Int, all: [Int: @Sendable (LiveFrame) -> Void])>((0, [:]))
    /// Pictures made since the start, for the log and the bench.
    public var framesMade: Int { made.load(ordering: .relaxed) }
    private let made = Atomic<Int>(0)
    // The thread's own:
    private var isp: PreviewISP?
    private var xrgb: [UInt32] = []
    private var compressor: TurboJPEGCompressor?
    private var sequence: UInt64 = 0

    public init(log: @escaping @Sendable (String) -> Void) {
        self.log = log
        sink.isPaused = true
    }

    public func start() -> Bool { thread.start { self.run() } }

    public func stop() { thread.stop() }

    /// Pictures to `receive` (on this thread) until the watch is ended.
    public func watch(_ receive: @escaping @Sendable (LiveFrame) -> Void) -> LiveWatch {
        let key = receivers.withLock { receivers in
            receivers.next += 1
            receivers.all[receivers.next] = receive
            return receivers.next
        }
        sink.isPaused = false
        thread.wake()
        return LiveWatch { [weak self] in
            guard let self else { return }
            let left = receivers.withLock { receivers in
                receivers.all[key] = nil
                return receivers.all.count
            }
            if left == 0 { sink.isPaused = true }
        }
    }

    /// Phones watching now.
    public var watchers: Int { receivers.withLock { $0.all.count } }

    private func run() {
        var descriptors = [pollfd(fd: sink.wakeDescriptor, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: thread.wakeDescriptor, events: Int16(POLLIN), revents: 0)]
        var lastMade = -Double.infinity
        while !thread.isStopping {
            _ = pollWaiting(&descriptors, seconds: 1)
            sink.drainWake()
            thread.drainWake()
            let watching = receivers.withLock { Array($0.all.values) }
            guard !watching.isEmpty else {
                sink.isPaused = true
                continue
            }
            // Paced: the next picture no sooner than a frame's time after the last.
            let wait = lastMade + 1 / Self.framesPerSecond - monotonicSeconds()
            if wait > 0, !thread.pause(seconds: wait) { break }
            guard let frame = sink.takeFrame() else {
                sink.isPaused = false
                continue
            }
            // One picture at a time: the sensor thread copies nothing more until it is made.
            sink.isPaused = true
            lastMade = monotonicSeconds()
            if let picture = make(frame, at: lastMade) {
                made.add(1, ordering: .relaxed)
                for receive in watching { receive(picture) }
            }
            sink.isPaused = receivers.withLock { $0.all.isEmpty }
        }
    }

    /// `frame` rendered small and compressed; nil if TurboJPEG refuses (said once).
    private func make(_ frame: PreviewFrame, at time: Double) -> LiveFrame? {
        let sourceWidth = frame.sensorWidth, sourceHeight = frame.sensorHeight
        guard sourceWidth > 0, sourceHeight > 0 else { return nil }
        let scale = min(Double(Self.longestSide) / Double(max(sourceWidth, sourceHeight)), 1)
        let width = max(Int(Double(sourceWidth) * scale) & ~1, 2), height = max(Int(Double(sourceHeight) * scale) & ~1, 2)
        if xrgb.count != width * height { xrgb = [UInt32](repeating: 0, count: width * height) }
        if isp == nil || isp!.maximumSourceWidth < sourceWidth || isp!.maximumSourceHeight < sourceHeight
            || isp!.maximumOutputWidth < width {
            isp = PreviewISP(maximumSourceWidth: sourceWidth, maximumSourceHeight: sourceHeight, maximumOutputWidth: width)
        }
        do {
            if compressor == nil { compressor = try TurboJPEGCompressor() }
            let jpeg = try xrgb.withUnsafeMutableBufferPointer { pixels throws(PhotoEncodingError) in
                isp!.render(frame, into: pixels.baseAddress!, stride: width, outputWidth: width, outputHeight: height,
                            viewfinder: PixelRect(x: 0, y: 0, width: width, height: height), crop: nil, rows: 0..<height)
                return try compressor!.compress(xrgb: pixels.baseAddress!, width: width, height: height, quality: Self.quality)
            }
            sequence += 1
            // (The sensor's own stamp where it gave one; else when this frame was taken up.)
            let stamped = frame.timestampNanoseconds > 0 ? Double(frame.timestampNanoseconds) / 1e9 : time
            return LiveFrame(sequence: sequence, jpeg: jpeg, width: width, height: height, sensorTime: stamped)
        } catch {
            if sequence == 0 { log("remote: no live view: \(error)") }
            return nil
        }
    }
}
