import CLinux
import ReflexHardware
import ReflexISP
import ReflexSystem
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Renders the lower band of each frame's picture on a second core while the loop renders the
/// upper band, each with a PreviewISP of its own (the ISP's work splits by output rows, see
/// `PreviewISP.renderBayer(rows:)`): the frame is ready in about half the time, which leaves
/// the loop room before its vblank when the machine is slowed by something else.
///
/// The loop hands a job over and waits for it before it draws on the picture; the worker
/// touches nothing else. Both run at the loop's realtime priority, and the worker never
/// allocates once its ISP is made (made again only when the frames grow).
final class PictureWorker: @unchecked Sendable {
    /// One band of one frame: what to render and where.
    struct Job {
        var frame: PreviewFrame
        var output: UnsafeMutablePointer<UInt32>
        var stride: Int
        var outputWidth: Int
        var outputHeight: Int
        var viewfinder: PixelRect
        var crop: PixelRect?
        var rows: Range<Int>
    }

    /// Worth a second thread: machines with at least two CPUs.
    static var isUseful: Bool { sysconf(Int32(_SC_NPROCESSORS_ONLN)) >= 2 }

    // Written by the loop before `posted` moves on, read by the worker after it has.
    private var job: Job?
    private let posted = Atomic<Int>(0)
    private let finished = Atomic<Int>(0)
    private let wakeUp = EventSignal()
    private let done = EventSignal()
    private let stopRequested = Atomic<Bool>(false)
    private var thread: pthread_t?
    /// The worker's own ISP (its tables and buffers are its own).
    private var isp: PreviewISP?

    func start() -> Bool {
        thread = startThread { self.run() }
        return thread != nil
    }

    func stop() {
        guard let thread else { return }
        stopRequested.store(true, ordering: .releasing)
        wakeUp.signal()
        pthread_join(thread, nil)
        self.thread = nil
    }

    var isRunning: Bool { thread != nil }

    // MARK: the loop's side

    /// Renders a whole frame's picture: the upper half with `isp` on the calling thread while
    /// the worker renders the lower half, or all of it here when the worker is not running.
    func render(_ frame: PreviewFrame, with isp: PreviewISP, into output: UnsafeMutablePointer<UInt32>, stride: Int,
                outputWidth: Int, outputHeight: Int, viewfinder: PixelRect, crop: PixelRect?) {
        guard isRunning else {
            isp.render(frame, into: output, stride: stride, outputWidth: outputWidth, outputHeight: outputHeight,
                       viewfinder: viewfinder, crop: crop, rows: 0..<outputHeight)
            return
        }
        let split = outputHeight / 2
        begin(Job(frame: frame, output: output, stride: stride, outputWidth: outputWidth, outputHeight: outputHeight,
                  viewfinder: viewfinder, crop: crop, rows: split..<outputHeight))
        isp.render(frame, into: output, stride: stride, outputWidth: outputWidth, outputHeight: outputHeight,
                   viewfinder: viewfinder, crop: crop, rows: 0..<split)
        waitUntilDone()
    }

    /// Starts rendering `job` on the worker; `waitUntilDone` must follow before the output
    /// is touched again.
    private func begin(_ job: Job) {
        self.job = job
        posted.wrappingAdd(1, ordering: .releasing)
        wakeUp.signal()
    }

    /// Blocks until the job given last is rendered.
    private func waitUntilDone() {
        let wanted = posted.load(ordering: .relaxed)
        var descriptor = pollfd(fd: done.descriptor, events: Int16(POLLIN), revents: 0)
        while finished.load(ordering: .acquiring) != wanted {
            descriptor.revents = 0
            _ = poll(&descriptor, 1, 100)
            done.drain()
        }
        // The worker keeps no reference to the frame past its job.
        job = nil
    }

    // MARK: the worker's thread

    private func run() {
        _ = reflex_make_thread_realtime(FrameLoop.realtimePriority)
        var descriptor = pollfd(fd: wakeUp.descriptor, events: Int16(POLLIN), revents: 0)
        var handled = 0
        while !stopRequested.load(ordering: .acquiring) {
            let wanted = posted.load(ordering: .acquiring)
            if wanted != handled, let job {
                render(job)
                handled = wanted
                finished.store(handled, ordering: .releasing)
                done.signal()
                continue
            }
            descriptor.revents = 0
            _ = poll(&descriptor, 1, -1)
            wakeUp.drain()
        }
    }

    private func render(_ job: Job) {
        let frame = job.frame
        if isp == nil || isp!.maximumSourceWidth < frame.sensorWidth || isp!.maximumSourceHeight < frame.sensorHeight
            || isp!.maximumOutputWidth < job.outputWidth {
            isp = PreviewISP(maximumSourceWidth: frame.sensorWidth, maximumSourceHeight: frame.sensorHeight,
                             maximumOutputWidth: job.outputWidth)
        }
        isp!.render(frame, into: job.output, stride: job.stride, outputWidth: job.outputWidth,
                    outputHeight: job.outputHeight, viewfinder: job.viewfinder, crop: job.crop, rows: job.rows)
    }
}

extension PreviewISP {
    /// Renders the rows `rows` of a preview frame of any kind (Bayer, YUYV, half-size XRGB)
    /// into `output`, the picture in `viewfinder`, cropped to `crop` (the digital zoom).
    func render(_ frame: PreviewFrame, into output: UnsafeMutablePointer<UInt32>, stride: Int, outputWidth: Int,
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
