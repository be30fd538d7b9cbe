import ReflexCore
import ReflexHardware
import ReflexISP
import ReflexSystem
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Renders each frame's picture on two cores: the loop and a worker thread, each with a
/// PreviewISP of its own (the ISP's work splits by output rows, see
/// `PreviewISP.renderBayer(rows:)`), take bands of rows in turn until none are left, so the
/// frame is ready in about half the time, which leaves the loop room before its vblank when
/// the machine is slowed by something else. Bands are taken, not dealt: a worker that wakes
/// late (a busy host can take a fraction of a millisecond to run it) takes fewer, and one
/// that does not wake before the loop has taken them all takes none.
///
/// The loop hands a frame over and waits for its last band before it draws on the picture;
/// the worker touches nothing else. Both run at the loop's realtime priority, and the worker
/// never allocates once its ISP is made (made again only when the frames grow).
public final class PictureWorker: @unchecked Sendable {
    /// One frame: what to render and where.
    struct Job {
        var frame: PreviewFrame
        var output: UnsafeMutablePointer<UInt32>
        var stride: Int
        var outputWidth: Int
        var outputHeight: Int
        var viewfinder: PixelRect
        var crop: PixelRect?
    }

    /// Bands a frame is cut into: enough that a late worker still takes its share, few enough
    /// that the source rows each band makes again at its top (one or two) cost little.
    public static let bandsPerFrame = 16

    /// Worth a second thread: machines with at least two CPUs.
    public static var isUseful: Bool { sysconf(Int32(_SC_NPROCESSORS_ONLN)) >= 2 }

    // Written by the loop before `nextBand` moves to its frame, read by the worker only after
    // it has taken a band of that frame, and so before the loop can write the next.
    private var job: Job?
    /// The frame's number (high bits) and its next band not yet taken (low 16 bits). It starts
    /// with frame 0's bands all taken: there is no frame 0, and a worker that started before
    /// the first frame must find nothing to take. (Numbers wrap after 2⁴⁷ frames, harmlessly.)
    private let nextBand = Atomic<Int>(PictureWorker.bandsPerFrame)
    /// Bands of the current frame rendered so far.
    private let bandsDone = Atomic<Int>(0)
    /// Bands the worker has rendered since it started (how much of the work it takes).
    private let workerBands = Atomic<Int>(0)
    public var bandsRenderedByWorker: Int { workerBands.load(ordering: .relaxed) }
    private var frameNumber = 0
    private let thread = WorkerThread(name: "reflex-picture", priority: FrameLoop.priority)
    private let done = EventSignal()
    /// The worker's own ISP (its tables and buffers are its own).
    private var isp: PreviewISP?

    public init() {}

    public func start() -> Bool { thread.start { self.run() } }

    public func stop() { thread.stop() }

    public var isRunning: Bool { thread.isRunning }

    /// Output rows of band `band` of a frame `height` rows high.
    public static func rows(ofBand band: Int, height: Int) -> Range<Int> {
        let size = (height + bandsPerFrame - 1) / bandsPerFrame
        return min(band * size, height)..<min((band + 1) * size, height)
    }

    // MARK: the loop's side

    /// Renders a whole frame's picture: bands of it with `isp` on the calling thread while the
    /// worker renders others, or all of it here when the worker is not running.
    public func render(_ frame: PreviewFrame, with isp: PreviewISP, into output: UnsafeMutablePointer<UInt32>, stride: Int,
                outputWidth: Int, outputHeight: Int, viewfinder: PixelRect, crop: PixelRect?) {
        guard isRunning else {
            isp.render(frame, into: output, stride: stride, outputWidth: outputWidth, outputHeight: outputHeight,
                       viewfinder: viewfinder, crop: crop, rows: 0..<outputHeight)
            return
        }
        job = Job(frame: frame, output: output, stride: stride, outputWidth: outputWidth,
                  outputHeight: outputHeight, viewfinder: viewfinder, crop: crop)
        frameNumber &+= 1
        bandsDone.store(0, ordering: .relaxed)
        nextBand.store(frameNumber << 16, ordering: .releasing)
        thread.wake()
        _ = renderBands(of: frameNumber) { band in
            isp.render(frame, into: output, stride: stride, outputWidth: outputWidth, outputHeight: outputHeight,
                       viewfinder: viewfinder, crop: crop, rows: PictureWorker.rows(ofBand: band, height: outputHeight))
        }
        waitForBands()
        // The worker keeps no reference to the frame past its bands.
        job = nil
    }

    /// Takes bands of frame `number` and renders each with `render` until none are left;
    /// how many it rendered.
    @inline(__always)
    private func renderBands(of number: Int, _ render: (Int) -> Void) -> Int {
        var rendered = 0
        while let band = takeBand(of: number) {
            render(band)
            bandsDone.wrappingAdd(1, ordering: .releasing)
            rendered += 1
        }
        return rendered
    }

    /// The next band of frame `number` not yet taken, taken; nil when all are, or the frame
    /// is no longer the current one.
    private func takeBand(of number: Int) -> Int? {
        var current = nextBand.load(ordering: .acquiring)
        while current >> 16 == number && current & 0xFFFF < PictureWorker.bandsPerFrame {
            let (exchanged, original) = nextBand.compareExchange(expected: current, desired: current + 1,
                                                                 ordering: .acquiringAndReleasing)
            if exchanged { return current & 0xFFFF }
            current = original
        }
        return nil
    }

    /// Blocks until every band of the current frame is rendered.
    private func waitForBands() {
        while bandsDone.load(ordering: .acquiring) != PictureWorker.bandsPerFrame { done.wait(milliseconds: 100) }
    }

    // MARK: the worker's thread

    private func run() {
        while !thread.isStopping {
            let number = nextBand.load(ordering: .acquiring) >> 16
            let rendered = renderBands(of: number) { band in
                // A band taken is a band of the current frame, whose job is set (see `job`).
                let job = self.job!
                render(job, rows: PictureWorker.rows(ofBand: band, height: job.outputHeight))
                workerBands.wrappingAdd(1, ordering: .relaxed)
            }
            if rendered > 0 { done.signal() }
            thread.waitForWake()
        }
    }

    private func render(_ job: Job, rows: Range<Int>) {
        let frame = job.frame
        if isp == nil || isp!.maximumSourceWidth < frame.sensorWidth || isp!.maximumSourceHeight < frame.sensorHeight
            || isp!.maximumOutputWidth < job.outputWidth {
            isp = PreviewISP(maximumSourceWidth: frame.sensorWidth, maximumSourceHeight: frame.sensorHeight,
                             maximumOutputWidth: job.outputWidth)
        }
        isp!.render(frame, into: job.output, stride: job.stride, outputWidth: job.outputWidth,
                    outputHeight: job.outputHeight, viewfinder: job.viewfinder, crop: job.crop, rows: rows)
    }
}

extension PreviewISP {
    /// Renders the rows `rows` of a preview frame of any kind (Bayer, YUYV, half-size XRGB)
    /// into `output`, the picture in `viewfinder`, cropped to `crop` (the digital zoom).
    public func render(_ frame: PreviewFrame, into output: UnsafeMutablePointer<UInt32>, stride: Int, outputWidth: Int,
                outputHeight: Int, viewfinder: PixelRect, crop: PixelRect?, rows: Range<Int>) {
        guard let bytes = frame.bytes else { return }
        if let layout = frame.layout, let parameters = frame.parameters {
            setParameters(parameters, format: layout.format)
            renderBayer(bytes, layout: layout, crop: crop, into: output, outputWidth: outputWidth,
                        outputHeight: outputHeight, outputStride: stride, destination: viewfinder, rows: rows)
        } else if frame.kind == .halfSizeXRGB {
            renderHalfSizeXRGB(bytes.assumingMemoryBound(to: UInt32.self), width: frame.width, height: frame.height,
                               crop: crop, into: output, outputWidth: outputWidth, outputHeight: outputHeight,
                               outputStride: stride, destination: viewfinder, rows: rows)
        } else {
            renderYUYV(bytes, width: frame.width, height: frame.height, bytesPerLine: frame.bytesPerLine, crop: crop,
                       into: output, outputWidth: outputWidth, outputHeight: outputHeight,
                       outputStride: stride, destination: viewfinder, rows: rows)
        }
    }
}
