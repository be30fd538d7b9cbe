import CLinux
import ReflexCore
import ReflexSystem
import ReflexUI
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Paints the interface's layers with Cairo on a thread of its own, so the realtime loop
/// never runs Cairo: Cairo and FreeType allocate whenever text is drawn, and the loop must
/// not. The loop asks for a state; the painter brings a set of layers up to it (only the
/// layers whose content changed) and hands the set back; the loop composites the newest set.
///
/// Sets move through triple buffers both ways, so neither thread ever waits on the other.
/// Each of the three sets is an `InterfaceRenderer` with its own Cairo surfaces; the loop
/// only ever reads the set it took, the painter only ever paints the set it holds.
final class InterfacePainter: @unchecked Sendable {
    /// What the loop wants on screen. `generation` grows with every new request.
    struct Request {
        var generation = 0
        var state: ViewState
        var layout: ScreenLayout
        var scales: DialScales
    }

    /// One set of layers and the request it was painted for.
    final class PaintedLayers {
        var renderer: InterfaceRenderer?
        var generation = 0
        var state: ViewState?
    }

    /// The painter's priority: just under the loop's, above every ordinary thread, so a
    /// change is painted before the next vblank even while files are being saved.
    static let realtimePriority: Int32 = FrameLoop.realtimePriority - 1

    private let fonts: FontLibrary
    private let requests = TripleBuffer<Request?> { nil }
    private let painted = TripleBuffer<PaintedLayers> { PaintedLayers() }
    /// Wakes the painter: a new request, or stop.
    private let wakeUp = EventSignal()
    /// Wakes the loop when a set is ready.
    private let paintedSignal: EventSignal
    private let stopRequested = Atomic<Bool>(false)
    private var thread: pthread_t?

    // The loop's side.
    private var lastRequest: Request?
    /// The newest generation asked for.
    private(set) var requestedGeneration = 0

    /// `paintedSignal` is signalled each time a set is ready (the loop polls it).
    init(fonts: FontLibrary, paintedSignal: EventSignal) {
        self.fonts = fonts
        self.paintedSignal = paintedSignal
    }

    func start() -> Bool {
        thread = startThread { self.run() }
        return thread != nil
    }

    func stop() {
        stopRequested.store(true, ordering: .releasing)
        wakeUp.signal()
        if let thread { pthread_join(thread, nil) }
        thread = nil
    }

    // MARK: the loop's side (never waits, never allocates)

    /// Asks for `state` on this layout; nothing happens if it is what was asked last.
    func request(_ state: ViewState, layout: ScreenLayout, scales: DialScales) {
        if let last = lastRequest, last.state == state, last.layout == layout, last.scales == scales { return }
        requestedGeneration += 1
        let request = Request(generation: requestedGeneration, state: state, layout: layout, scales: scales)
        lastRequest = request
        requests.publish(request)
        wakeUp.signal()
    }

    /// The newest painted set, or nil before the first.
    func newestLayers() -> PaintedLayers? {
        painted.takeNewest()
        return painted.current.renderer == nil ? nil : painted.current
    }

    /// True while the newest set is older than the newest request.
    func isBehind() -> Bool {
        (newestLayers()?.generation ?? 0) < requestedGeneration
    }

    // MARK: the painter's thread

    private func run() {
        _ = reflex_make_thread_realtime(InterfacePainter.realtimePriority)
        var descriptor = pollfd(fd: wakeUp.descriptor, events: Int16(POLLIN), revents: 0)
        while !stopRequested.load(ordering: .acquiring) {
            descriptor.revents = 0
            _ = poll(&descriptor, 1, -1)
            wakeUp.drain()
            guard requests.takeNewest(), let request = requests.current else { continue }
            paint(request, into: painted.writable)
            painted.publish()
            paintedSignal.signal()
        }
    }

    /// Brings one set up to `request`: a new renderer when the layout or the dials' scales
    /// changed, otherwise only the layers whose content differs.
    private func paint(_ request: Request, into layers: PaintedLayers) {
        if layers.renderer == nil || layers.renderer!.layout != request.layout || layers.renderer!.scales != request.scales {
            layers.renderer = InterfaceRenderer(layout: request.layout, fonts: fonts, scales: request.scales)
        }
        layers.renderer!.update(request.state)
        layers.generation = request.generation
        layers.state = request.state
    }
}
