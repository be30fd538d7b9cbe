import ReflexCore
import ReflexHardware
import ReflexSystem
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The one way in to the sensor thread: the settings to apply, the zoom, capture requests,
/// the choice of camera and the sinks to feed. Each kind keeps the semantics it needs —
/// settings and zoom: the newest wins; capture requests: counted, none lost; the camera
/// choice and sinks: taken in order — and one eventfd wakes the sensor thread for all.
/// Settings, zoom and captures come from the realtime loop and never wait or allocate;
/// captures also come from other programs (`reflex capture`), on a channel of their own.
public final class ControlMailbox: @unchecked Sendable {
    /// A press of the shutter, as the loop saw it.
    public struct CaptureRequest: Sendable, Equatable {
        /// Counts from 1 in the order the sensor thread took the presses.
        public let number: Int
        /// For a press from another program, its own number (it waits for that photo).
        public let ticket: Int?
        /// When it was pressed, monotonic seconds (the input event's kernel time): the frame
        /// under way then is the photo.
        public let pressedAt: Double
        /// The framing on screen at the press (zoom 1, centred: none): the photo is framed as
        /// the viewfinder was.
        public let framing: Framing
        /// A format for this photo only (`reflex capture --format`); nil: the settings'.
        public let format: CaptureFormat?
        /// An exposure bracket instead of one photo: its frames are the stream's next ones,
        /// each exposed as the plan asks (not the ring's frame of the press).
        public let bracket: BracketPlan?
        /// The interval run whose photo it is (its number, counted by the interface): the
        /// run's timelapse is made of these.
        public let intervalRun: Int?

        public init(number: Int, ticket: Int?, pressedAt: Double, framing: Framing, format: CaptureFormat?,
                    bracket: BracketPlan? = nil, intervalRun: Int? = nil) {
            (self.number, self.ticket, self.pressedAt, self.framing, self.format) = (number, ticket, pressedAt, framing, format)
            (self.bracket, self.intervalRun) = (bracket, intervalRun)
        }
    }

    private let settings = TripleBuffer { CameraSettings() }
    private let zoom = Atomic<UInt64>(1.0.bitPattern)
    private let zoomSent = Atomic<Int>(0)
    private static let captureSlots = 16
    /// A press on its way: its time, zoom and format, and the sender's ticket.
    private struct Press {
        var time: Double, framing: Framing, format: CaptureFormat?, ticket: Int?, bracket: BracketPlan?, intervalRun: Int? = nil
    }
    /// The loop's presses, and other programs' (one sending thread each).
    /// (Both wake the sensor thread through the mailbox's one eventfd.)
    private let presses: HandOffQueue<Press>
    private let remotePresses: HandOffQueue<Press>
    private let remoteTickets = Atomic<Int>(0)
    private var capturesTaken = 0
    private var zoomTaken = 0
    /// The camera choice and sinks not yet taken (a class: sinks are not Sendable values,
    /// and they cross to the sensor thread only through this lock).
    private final class RareMessages: @unchecked Sendable {
        var choice: CameraChoice?
        var sinks: [FrameSink] = []
    }
    private let rareLock = Mutex<Void>(())
    private let rare = RareMessages()
    private let wakeUp = EventSignal()

    public init() {
        presses = HandOffQueue(capacity: ControlMailbox.captureSlots, wakes: wakeUp)
        remotePresses = HandOffQueue(capacity: ControlMailbox.captureSlots, wakes: wakeUp)
    }

    // MARK: the senders' side

    /// New settings (from the loop: never waits).
    public func send(_ new: CameraSettings) {
        settings.publish(new)
        wakeUp.signal()
    }

    /// The zoom the screen wants now (1 = none); it goes to the camera's zoom control where
    /// there is one, from a coming frame. (From the loop: never waits.)
    public func requestZoom(_ factor: Double) {
        guard Double(bitPattern: zoom.load(ordering: .relaxed)) != factor else { return }
        zoom.store(factor.bitPattern, ordering: .relaxed)
        zoomSent.wrappingAdd(1, ordering: .releasing)
    }

    /// A press of the shutter at `time` with `zoom` on screen; false if `captureSlots` presses
    /// are still waiting (the press is refused, not lost unseen). From the loop only.
    @discardableResult
    public func requestCapture(at time: Double, framing: Framing = Framing(zoom: 1), bracket: BracketPlan? = nil,
                               intervalRun: Int? = nil) -> Bool {
        presses.send(Press(time: time, framing: framing, format: nil, ticket: nil, bracket: bracket, intervalRun: intervalRun))
    }

    /// A press from another program (`reflex capture`, one thread of it), with a format for
    /// this photo only; its ticket, which its photo's result carries, or nil when refused.
    public func requestRemoteCapture(at time: Double, format: CaptureFormat?, bracket: BracketPlan? = nil) -> Int? {
        requestRemoteCapture(at: time, format: format, bracket: bracket, waitingUpTo: 0)
    }

    /// As above, but a press that finds every slot taken waits for one, up to `patience`
    /// seconds or until `giveUp` says so, as a camera's burst slows while its buffer is full.
    /// (The sensor thread takes presses at every frame: the slots stay full only while it is
    /// held up, by a machine busy with other work, not for any photo's sake.) The press keeps
    /// its own time: the frame under way then is still the one it asks for.
    public func requestRemoteCapture(at time: Double, format: CaptureFormat?, bracket: BracketPlan? = nil,
                                     waitingUpTo patience: Double, giveUp: () -> Bool = { false }) -> Int? {
        let ticket = remoteTickets.add(1, ordering: .relaxed).newValue
        let press = Press(time: time, framing: Framing(zoom: 1), format: format, ticket: ticket, bracket: bracket)
        let deadline = monotonicSeconds() + patience
        while !remotePresses.send(press) {
            guard monotonicSeconds() < deadline, !giveUp() else { return nil }
            usleep(ControlMailbox.slotPollMicroseconds)
        }
        return ticket
    }

    /// How often a waiting press looks for a free slot: a tenth of a 60 fps frame.
    private static let slotPollMicroseconds: UInt32 = 1_700

    /// The shutter's half press: hold exposure and white balance (and focus) as they are,
    /// until let go. (From the loop: never waits.)
    public func lockExposure(_ locked: Bool) {
        lock.store(locked, ordering: .releasing)
        wakeUp.signal()
    }

    /// Whether exposure is held (the sensor thread reads it each frame).
    public var exposureLocked: Bool { lock.load(ordering: .acquiring) }
    private let lock = Atomic<Bool>(false)

    /// Another camera, or another mode of this one: the session streams it next.
    public func choose(_ choice: CameraChoice) {
        rareLock.withLock { _ in rare.choice = choice }
        wakeUp.signal()
    }

    /// A sink to feed from the next frame on.
    public func attach(_ sink: FrameSink) {
        rareLock.withLock { _ in rare.sinks.append(sink) }
        wakeUp.signal()
    }

    // MARK: the sensor thread's side

    public var wakeDescriptor: Int32 { wakeUp.descriptor }
    public func drainWake() { wakeUp.drain() }

    /// The newest settings, if new ones came since the last call.
    public func takeSettings() -> CameraSettings? { settings.takeNewest() ? settings.current : nil }

    /// The newest zoom, if it changed since the last call.
    public func takeZoom() -> Double? {
        let sent = zoomSent.load(ordering: .acquiring)
        guard sent != zoomTaken else { return nil }
        zoomTaken = sent
        return Double(bitPattern: zoom.load(ordering: .relaxed))
    }

    /// The next capture request not yet taken, oldest first (the loop's before others').
    public func takeCaptureRequest() -> CaptureRequest? {
        guard let press = presses.receive() ?? remotePresses.receive() else { return nil }
        capturesTaken += 1
        return CaptureRequest(number: capturesTaken, ticket: press.ticket, pressedAt: press.time, framing: press.framing,
                              format: press.format, bracket: press.bracket, intervalRun: press.intervalRun)
    }

    /// A camera choice and sinks sent since the last call (rare: a lock is fine here).
    public func takeRareMessages() -> (choice: CameraChoice?, sinks: [FrameSink]) {
        rareLock.withLock { _ in
            defer { (rare.choice, rare.sinks) = (nil, []) }
            return (rare.choice, rare.sinks)
        }
    }
}
