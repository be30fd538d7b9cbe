import ReflexCore
import ReflexHardware
import ReflexISP
import ReflexSystem
import ReflexUI
import Synchronization

/// The realtime loop: one thread that owns the display. It sleeps in poll() on the display
/// (vblank / page-flip events), the sensor's, the input's and its own eventfds; when the panel
/// is free and there is something new (a frame, a change on screen, an animation step) it
/// renders the newest frame through the preview ISP (in review: the review thread's picture)
/// into the back buffer, lays the interface over it and queues the flip. Once running,
/// nothing on this thread allocates (only rare events do: a new frame size or new camera
/// limits), locks, logs or touches a file: the layers are painted with Cairo by
/// `InterfacePainter` on its own thread when what they show changes, and the loop blends the
/// newest set; a change shows once painted, and a new sensor frame waits for the layers of a
/// change in progress at most `paintPatience`.
///
/// The V4L2 device stays with the sensor thread, which hands each frame over as a copy (a
/// control write over I2C can take milliseconds, never on this thread). What the loop changes
/// goes back through the sensor's mailbox and the settings writer; what the camera says comes
/// in one status snapshot, read each turn.
public final class FrameLoop: @unchecked Sendable {
    // The loop's own state, and the steps its extensions call across files, are `internal`
    // rather than `private` only so that its extensions in FrameLoop+*.swift reach them: they
    // are the type's own, no API (nothing outside the loop touches them).

    /// The time every deadline of the loop is reckoned in: the monotonic clock, or a test's.
    internal let clock: TimeSource

    internal let display: DisplayOutput
    public let displaySummary: String
    internal let preview: PreviewSink
    internal let cameraStatus: StatusBoard
    private let fonts: FontLibrary
    /// The screen's state, the interface's rules and the status turned into them.
    internal var model: ScreenModel
    internal let input: InputSource?
    /// Where the input's decisions go: the sensor, the settings file, the GPS client, the
    /// vibrator, the movie thread, the save queue (each nil where there is none: a benchmark).
    internal let router: InputRouter
    internal let analysis: SubjectAnalysis?  // auto-zoom's subject, from the analysis thread (nil: none)
    /// The loop's thread; its wake-up: to stop, to answer a statistics request, or a painted set.
    internal let thread = WorkerThread(name: "reflex-loop", priority: FrameLoop.priority)
    /// For a caller that drives `step` itself: poll this with the display, then `drainWakeUp`.
    public var wakeDescriptor: Int32 { thread.wakeDescriptor }
    internal let painter: InterfacePainter
    /// How long a frame may wait, from its picture's start, for the layers of a change asked
    /// before it began, before it goes out with the previous ones: a third of a 60 Hz frame.
    /// Where the panel has vblanks the wait never passes the latch, unless the patience is
    /// longer than a frame (tests of an unoptimised painter give it a second).
    public static let defaultPaintPatience = 0.005
    internal let paintPatience: Double

    /// Draws each frame: the picture, the marks, the layers.
    internal let composer: FrameComposer
    internal var status = CameraStatus()
    internal var report: SensorReport { status.sensor }
    /// The painter's generation of the layers last presented.
    internal var presentedGeneration = 0
    /// The wait from an input to the flip that shows it.
    internal var inputToScreen = InputToScreen()
    /// When each part of a frame is made, aimed at the vblanks; and when the next part is
    /// due: its picture, or its latch (or the end of a wait for layers).
    internal var aim = VblankAim()
    internal var presentDueAt: Double?
    /// The picture drawn for the coming vblank, waiting for its latch.
    internal var prepared: PreparedPicture?
    internal var newFrame = false
    internal var presentedAt = 0.0
    internal var missedAtLastFrame = 0
    public internal(set) var statistics = Statistics()
    /// A frame's picture is drawn and its latch is still to come (for a caller that drives `step`).
    public var pictureWaitsForItsLatch: Bool {
        guard let prepared, let latchAt = prepared.latchAt else { return false }
        return clock.now() < latchAt
    }
    /// What the screen shows now: for a caller that drives `step` itself, on its thread.
    public var shownState: ViewState { model.state }
    /// Whether the painter has yet to paint the newest change, or review's thread to carry out
    /// what it was asked (a caller that drives the clock lets them finish before moving on).
    public var interfaceIsBeingPainted: Bool { painter.isBehind() }
    public var reviewIsBusy: Bool { router.reviewer?.isBusy ?? false }

    /// The statistics, copied for other threads between two frames when asked.
    internal let exchange = StatisticsExchange()
    /// Input posted by another thread (`post`), taken on the loop's.
    internal let posted = PostedInputs<InputEvent>(capacity: 64)
    /// Controls a phone posted (the remote's thread), taken on the loop's.
    internal let remoteControls = PostedInputs<RemoteControl>(capacity: 16)
    /// The state on screen, for the remote's thread (published as it changes).
    public let shownStates = ShownStateBoard()
    /// Set when the loop ended on its own (the display failed): the caller opens it again.
    public let ended = Atomic<Bool>(false)

    /// `preview`, `status` and `mailbox` are the sensor's (`SensorPipeline`); without a
    /// mailbox, changes on screen reach no sensor (a benchmark).
    public init(display: DisplayOutput, preview: PreviewSink, status: StatusBoard, mailbox: ControlMailbox?,
                fonts: FontLibrary, model: CameraModel, fNumber: Double?, input: InputSource? = nil,
                settingsWriter: SettingsWriter? = nil, paintPatience: Double = FrameLoop.defaultPaintPatience,
                controls: BoardControls = BoardControls(), haptics: Haptics? = nil, statusLight: StatusLight? = nil, backlight: Backlight? = nil,
                saveDecisions: HandOffQueue<SaveDecision>? = nil, gps: GPSDClient? = nil,
                lenses: [LensDescription] = [], movies: MovieRecorder? = nil, analysis: SubjectAnalysis? = nil,
                timelapse: TimelapseMaker? = nil, reviewer: Reviewer? = nil, remote: RemoteSwitch? = nil,
                usb: USBSwitch? = nil, clock: TimeSource = .monotonic) {
        (self.clock, self.analysis) = (clock, analysis)
        self.paintPatience = paintPatience
        router = InputRouter(mailbox: mailbox, settingsWriter: settingsWriter, gps: gps, haptics: haptics, movies: movies,
                             saveDecisions: saveDecisions, analysis: analysis, reviewer: reviewer, statusLight: statusLight,
                             backlight: backlight, timelapse: timelapse, remote: remote, usb: usb)
        reviewer?.wakes = thread
        (self.input, self.display, self.preview, cameraStatus, self.fonts) = (input, display, preview, status, fonts)
        displaySummary = display.summary
        painter = InterfacePainter(fonts: fonts, wakes: thread)
        composer = FrameComposer(display: display)
        // The controls' places do not depend on the sensor's aspect: one layout serves input.
        var controller = InterfaceController(model: model,
                                             layout: ScreenLayout(width: display.width, height: display.height,
                                                                  density: display.density),
                                             now: clock.now())
        controller.controls = controls
        self.model = ScreenModel(controller: controller, model: model, fNumber: fNumber, lenses: lenses, gps: gps?.status ?? .off)
        warmInputPath(now: clock.now())
    }
}
