import CAllocationCounter
import CLinux
import ReflexCore
import ReflexHardware
import ReflexISP
import ReflexSystem
import ReflexUI
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The realtime loop: one thread that owns the display. It sleeps in poll() on the display
/// (vblank / page-flip events), the sensor's wake-up eventfd and its own stop eventfd; when
/// the panel is free and there is something new (a frame, a change on screen, an animation
/// step) it renders the newest frame through the preview ISP into the back buffer, lays the
/// interface over it and queues the flip. Nothing on the frame path allocates, locks, logs
/// or touches a file; the interface's Cairo drawing runs only when what it shows changes.
///
/// The V4L2 device itself stays with the sensor thread, which hands each frame over as a
/// copy: a control write to a real sensor goes over I2C and can take milliseconds, and that
/// must never happen on this thread.
final class FrameLoop: @unchecked Sendable {
    private let display: DisplayOutput
    private let exchange: PreviewFrameExchange
    private let fonts: FontLibrary
    private var model: CameraModel
    private let fNumberTenths: Int
    private let log: @Sendable (String) -> Void
    private let stopDescriptor = reflex_event_fd()
    private var thread: pthread_t?

    private var isp: PreviewISP?
    private var renderer: InterfaceRenderer?
    private var report = SensorReport()
    private var state: ViewState
    private var shownState: ViewState?
    private var fade: ControlsFade
    private var reveal: ProReveal
    private var histogram = [UInt32](repeating: 0, count: 64)
    private var newFrame = false
    /// What the overlay plane shows (when there is one), and whether a new histogram since.
    private var overlayState: ViewState?
    private var overlayStale = true
    /// The frame just presented was queued the moment the previous flip completed: if more
    /// than one vblank passes before it completes, a deadline was missed.
    private var presentedOnTime = false
    private var firstFrameShown = false
    private(set) var ring = FrameTimeRing()

    // Statistics for other threads: a copy made on request, so the ring is never read while written.
    private let statsRequested = Atomic<Bool>(false)
    private let statsReady = Atomic<Bool>(false)
    private var statsCopy = FrameTimeRing()
    private let firstFrameFlag = Atomic<Bool>(false)

    init(display: DisplayOutput, exchange: PreviewFrameExchange, fonts: FontLibrary, model: CameraModel,
         fNumber: Double?, log: @escaping @Sendable (String) -> Void) {
        self.display = display
        self.exchange = exchange
        self.fonts = fonts
        self.model = model
        self.log = log
        fNumberTenths = fNumber.map { Int(($0 * 10).rounded()) } ?? 0
        state = ViewState(settings: model.settings, hasFocusDial: model.limits.hasFocusControl)
        let now = monotonicSeconds()
        fade = ControlsFade(now: now)
        reveal = ProReveal(shown: model.settings.mode == .pro)
    }

    deinit { close(stopDescriptor) }

    // MARK: the thread

    func start() {
        let retained = Unmanaged.passRetained(self)
        var created = pthread_t()
        guard pthread_create(&created, nil, { context in
            let loop = Unmanaged<FrameLoop>.fromOpaque(context!).takeRetainedValue()
            loop.run()
            return nil
        }, retained.toOpaque()) == 0 else {
            retained.release()
            log("display: cannot start the realtime loop thread")
            return
        }
        thread = created
    }

    func stop() {
        var one: UInt64 = 1
        _ = write(stopDescriptor, &one, 8)
        if let thread { pthread_join(thread, nil) }
        thread = nil
    }

    /// True once a frame has reached the screen.
    var hasShownFrame: Bool { firstFrameFlag.load(ordering: .acquiring) }

    /// A copy of the frame-time record, made by the loop between two frames (nil if the
    /// loop does not answer within `timeout` seconds).
    func frameTimes(timeout: Double = 1) -> FrameTimeRing? {
        statsRequested.store(true, ordering: .releasing)
        var waited = 0.0
        while !statsReady.load(ordering: .acquiring) {
            guard waited < timeout else { return nil }
            usleep(5_000)
            waited += 0.005
        }
        defer { statsReady.store(false, ordering: .releasing) }
        return statsCopy
    }

    private func run() {
        var descriptors = [pollfd(fd: display.descriptor, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: exchange.wakeDescriptor, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: stopDescriptor, events: Int16(POLLIN), revents: 0)]
        while true {
            for i in 0..<descriptors.count { descriptors[i].revents = 0 }
            // Animations need every vblank; otherwise the loop sleeps until something happens.
            let timeout: Int32 = isAnimating(at: monotonicSeconds()) ? 16 : 500
            let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
            if ready < 0 && errno != EINTR { break }
            if descriptors[2].revents & Int16(POLLIN) != 0 { break }
            if descriptors[0].revents & Int16(POLLIN) != 0 { displayEvents() }
            if descriptors[1].revents & Int16(POLLIN) != 0 { exchange.drainWake() }
            step(now: monotonicSeconds())
        }
    }

    // MARK: one turn of the loop (also driven directly by `reflex bench frame`)

    /// Reads the display's events: completed flips and the vblanks between them.
    func displayEvents() {
        let vblanks = display.handleEvents()
        guard vblanks > 0 else { return }
        if presentedOnTime && vblanks > 1 { missedSinceLastFrame += vblanks - 1 }
        if !firstFrameShown {
            firstFrameShown = true
            firstFrameFlag.store(true, ordering: .releasing)
        }
    }

    private var missedSinceLastFrame = 0

    /// Takes what the sensor sent and, if the panel is free and something changed, presents.
    func step(now: Double) {
        if statsRequested.load(ordering: .acquiring) {
            statsCopy.copy(from: ring)
            statsRequested.store(false, ordering: .relaxed)
            statsReady.store(true, ordering: .releasing)
        }
        if let newReport = exchange.takeReport() { take(newReport) }
        if exchange.takeFrame() != nil { newFrame = true }
        guard !display.flipPending else { return }
        guard newFrame || state != shownState || isAnimating(at: now) else {
            presentedOnTime = false
            return
        }
        let allocationsBefore = reflex_thread_allocations()
        let started = monotonicSeconds()
        present(now: now)
        let finished = monotonicSeconds()
        ring.record(microseconds: Int((finished - started) * 1e6), at: finished, missed: missedSinceLastFrame,
                    allocations: Int(reflex_thread_allocations() - allocationsBefore))
        missedSinceLastFrame = 0
        presentedOnTime = true
        newFrame = false
    }

    private func take(_ newReport: SensorReport) {
        report = newReport
        state.screen = switch newReport.status {
        case .starting, .streaming: .live
        case .noCamera: .noCamera
        case .lost: .reconnecting
        }
        state.readout = ExposureReadout(
            iso: model.isoScale.nearest(to: ISOSpeed(newReport.iso)).value,
            shutter: model.shutterScale.nearest(toSeconds: newReport.exposureSeconds),
            fNumberTenths: fNumberTenths, kelvin: (newReport.kelvin + 50) / 100 * 100)
        if newReport.hasHistogram {
            for bin in 0..<histogram.count { histogram[bin] = newReport.histogram[bin] }
            overlayStale = true
        }
    }

    private func isAnimating(at now: Double) -> Bool {
        !reveal.isSettled(at: now) || (state.settings.mode == .pro && !fade.isFaded(at: now))
    }

    private func present(now: Double) {
        let frame = exchange.currentFrame
        let sourceWidth = frame?.width ?? report.width, sourceHeight = frame?.height ?? report.height
        if renderer == nil || renderer!.layout.viewfinder
            != PixelRect(x: 0, y: 0, width: display.width, height: display.height)
            .fitting(sourceWidth: sourceWidth, sourceHeight: sourceHeight) {
            let layout = ScreenLayout(width: display.width, height: display.height,
                                      sensorWidth: sourceWidth, sensorHeight: sourceHeight)
            renderer = InterfaceRenderer(layout: layout, fonts: fonts, scales: DialScales(model))
            shownState = nil
            overlayStale = true
        }
        let renderer = renderer!
        if let frame, isp == nil || isp!.maximumSourceWidth < frame.width || isp!.maximumSourceHeight < frame.height {
            isp = PreviewISP(maximumSourceWidth: frame.width, maximumSourceHeight: frame.height,
                             maximumOutputWidth: display.width)
        }
        renderer.update(state)
        shownState = state
        let showHistogram = report.hasHistogram && state.screen == .live
        let pro = state.settings.mode == .pro
        let overlay = InterfaceRenderer.FrameOverlay(controlsOpacity: pro ? fade.opacity(at: now) : 1,
                                                     reveal: reveal.progress(at: now), zebras: state.zebras,
                                                     zebraPhase: Int(now * 30))
        // With an overlay plane the interface is redrawn only when it changed; the picture
        // alone goes to the primary plane every frame.
        let useOverlay = display.hasOverlay
        let updateOverlay = useOverlay && (overlayStale || state != overlayState || isAnimating(at: now))
        do {
            try display.present({ pixels, stride throws(DisplayError) in
                if state.screen == .live, let frame, let isp, let bytes = frame.bytes {
                    renderPicture(frame, bytes: bytes, isp: isp, into: pixels, stride: stride, viewfinder: renderer.layout.viewfinder)
                } else {
                    for row in 0..<display.height { (pixels + row * stride).update(repeating: 0xFF00_0000, count: display.width) }
                }
                renderer.decoratePicture(pixels, stride: stride, overlay, screen: state.screen)
                if !useOverlay { composite(renderer, into: pixels, stride: stride, overlay, showHistogram: showHistogram) }
            }, updatingOverlay: updateOverlay, overlay: { pixels, stride in
                for row in 0..<display.height { (pixels + row * stride).update(repeating: 0, count: display.width) }
                composite(renderer, into: pixels, stride: stride, overlay, showHistogram: showHistogram)
            })
            if updateOverlay {
                overlayState = state
                overlayStale = false
            }
        } catch {
            presentFailures += 1
        }
    }

    private func composite(_ renderer: InterfaceRenderer, into pixels: UnsafeMutablePointer<UInt32>, stride: Int,
                           _ overlay: InterfaceRenderer.FrameOverlay, showHistogram: Bool) {
        histogram.withUnsafeBufferPointer { bins in
            var frameOverlay = overlay
            frameOverlay.histogram = showHistogram ? bins : nil
            renderer.composite(into: pixels, stride: stride, frameOverlay, screen: state.screen)
        }
    }

    /// Flips the display refused (counted; the log reads it from the statistics).
    private(set) var presentFailures = 0

    private func renderPicture(_ frame: PreviewFrame, bytes: UnsafeMutableRawPointer, isp: PreviewISP,
                               into pixels: UnsafeMutablePointer<UInt32>, stride: Int, viewfinder: PixelRect) {
        if let layout = frame.layout, let parameters = frame.parameters {
            isp.setParameters(parameters, format: layout.format)
            isp.renderBayer(bytes, layout: layout, into: pixels, outputWidth: display.width, outputHeight: display.height,
                            outputStride: stride, destination: viewfinder)
        } else {
            isp.renderYUYV(bytes, width: frame.width, height: frame.height, bytesPerLine: frame.bytesPerLine,
                           into: pixels, outputWidth: display.width, outputHeight: display.height,
                           outputStride: stride, destination: viewfinder)
        }
    }
}
