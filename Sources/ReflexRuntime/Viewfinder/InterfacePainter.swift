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
public final class InterfacePainter: @unchecked Sendable {
    /// What the loop wants on screen. `generation` grows with every new request.
    public struct Request {
        var generation = 0
        var state: ViewState
        var layout: ScreenLayout
        var scales: DialScales
    }

    /// One set of layers and the request it was painted for.
    public final class PaintedLayers {
        public internal(set) var renderer: InterfaceRenderer?
        public internal(set) var generation = 0
        public internal(set) var state: ViewState?
    }

    /// The painter's priority: just under the loop's, above every ordinary thread, so a
    /// change is painted before the next vblank even while files are being saved.
    static let priority = WorkerThread.Priority.realtime(FrameLoop.realtimePriority - 1)

    private let fonts: FontLibrary
    private let requests = TripleBuffer<Request?> { nil }
    private let painted = TripleBuffer<PaintedLayers> { PaintedLayers() }
    /// The painter's thread; its wake-up is a new request, or stop.
    private let thread = WorkerThread(name: "reflex-painter", priority: InterfacePainter.priority)
    /// The loop's thread, woken when a set is ready.
    private let loop: WorkerThread

    // The loop's side.
    private var lastRequest: Request?
    /// The newest generation asked for.
    public private(set) var requestedGeneration = 0

    /// `loop` is woken each time a set is ready.
    public init(fonts: FontLibrary, wakes loop: WorkerThread) {
        self.fonts = fonts
        self.loop = loop
    }

    public func start() -> Bool { thread.start { self.run() } }

    public func stop() { thread.stop() }

    // MARK: the loop's side (never waits, never allocates)

    /// Asks for `state` on this layout; nothing happens if it is what was asked last (false).
    @discardableResult
    public func request(_ state: ViewState, layout: ScreenLayout, scales: DialScales) -> Bool {
        if let last = lastRequest, last.state == state, last.layout == layout, last.scales == scales { return false }
        requestedGeneration += 1
        let request = Request(generation: requestedGeneration, state: state, layout: layout, scales: scales)
        lastRequest = request
        requests.publish(request)
        thread.wake()
        return true
    }

    /// The newest painted set, or nil before the first.
    public func newestLayers() -> PaintedLayers? {
        painted.takeNewest()
        return painted.current.renderer == nil ? nil : painted.current
    }

    /// True while the newest set is older than the newest request.
    public func isBehind() -> Bool {
        (newestLayers()?.generation ?? 0) < requestedGeneration
    }

    // MARK: the painter's thread

    private func run() {
        while !thread.isStopping {
            thread.waitForWake()
            guard requests.takeNewest(), let request = requests.current else { continue }
            paint(request, into: painted.writable)
            painted.publish()
            loop.wake()
            // The set now writable is a request or two behind (the loop had it): brought up
            // to this one at once, so the next change paints only what it changes, in the
            // moment between an input and the frame that shows it.
            if !requests.hasNewer { paint(request, into: painted.writable) }
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
