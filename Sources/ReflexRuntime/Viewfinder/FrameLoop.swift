import CAllocationCounter
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
    /// A flip whose event has not come after this long is given up (and counted).
    static let flipTimeout = 0.5

    /// The time every deadline of the loop is reckoned in: the monotonic clock, or a test's.
    private let clock: TimeSource

    private let display: DisplayOutput
    public let displaySummary: String
    private let preview: PreviewSink
    private let cameraStatus: StatusBoard
    private let fonts: FontLibrary
    /// The screen's state, the interface's rules and the status turned into them.
    private var model: ScreenModel
    private let input: InputSource?
    /// Where the input's decisions go: the sensor, the settings file, the GPS client, the
    /// vibrator, the movie thread, the save queue (each nil where there is none: a benchmark).
    private let router: InputRouter
    private let analysis: SubjectAnalysis?  // auto-zoom's subject, from the analysis thread (nil: none)
    /// The loop's thread; its wake-up: to stop, to answer a statistics request, or a painted set.
    private let thread = WorkerThread(name: "reflex-loop", priority: FrameLoop.priority)
    /// For a caller that drives `step` itself: poll this with the display, then `drainWakeUp`.
    public var wakeDescriptor: Int32 { thread.wakeDescriptor }
    /// Clears the loop's wake-up and takes the input posted to it (`post`).
    public func drainWakeUp() {
        thread.drainWake()
        posted.takeEach { inject($0, at: $1) }
        remoteControls.takeEach { control, time in
            let now = clock.now()
            takeInput(now: now) { router.apply(control, at: time, now: now, to: &model, batch: &$0) }
        }
    }
    private let painter: InterfacePainter
    /// How long a frame may wait, from its picture's start, for the layers of a change asked
    /// before it began, before it goes out with the previous ones: a third of a 60 Hz frame.
    /// Where the panel has vblanks the wait never passes the latch, unless the patience is
    /// longer than a frame (tests of an unoptimised painter give it a second).
    public static let defaultPaintPatience = 0.005
    private let paintPatience: Double

    /// Draws each frame: the picture, the marks, the layers.
    private let composer: FrameComposer
    private var pictureWorker: PictureWorker { composer.pictureWorker }
    private var status = CameraStatus()
    private var report: SensorReport { status.sensor }
    /// The painter's generation of the layers last presented.
    private var presentedGeneration = 0
    /// The wait from an input to the flip that shows it.
    private var inputToScreen = InputToScreen()
    /// When each part of a frame is made, aimed at the vblanks; and when the next part is
    /// due: its picture, or its latch (or the end of a wait for layers).
    private var aim = VblankAim()
    private var presentDueAt: Double?
    /// The picture drawn for the coming vblank, waiting for its latch.
    private var prepared: PreparedPicture?
    private var newFrame = false
    private var presentedAt = 0.0
    private var missedAtLastFrame = 0
    public private(set) var statistics = Statistics()
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
    private let exchange = StatisticsExchange()
    /// Input posted by another thread (`post`), taken on the loop's.
    private let posted = PostedInputs<InputEvent>(capacity: 64)
    /// Controls a phone posted (the remote's thread), taken on the loop's.
    private let remoteControls = PostedInputs<RemoteControl>(capacity: 16)
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
                clock: TimeSource = .monotonic) {
        (self.clock, self.analysis) = (clock, analysis)
        self.paintPatience = paintPatience
        router = InputRouter(mailbox: mailbox, settingsWriter: settingsWriter, gps: gps, haptics: haptics, movies: movies,
                             saveDecisions: saveDecisions, analysis: analysis, reviewer: reviewer, statusLight: statusLight,
                             backlight: backlight, timelapse: timelapse, remote: remote)
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
    }

    // MARK: the thread

    /// Starts the thread; false if it could not be made.
    public func start() -> Bool {
        guard startPainter() else { return false }
        startPictureWorker()
        _ = router.reviewer?.start()
        guard thread.start({ self.run() }) else {
            stop()
            return false
        }
        return true
    }

    /// The painter alone, for a caller that drives `step` itself (`reflex bench frame`).
    public func startPainter() -> Bool { painter.start() }

    /// The picture's second thread, where there is a second CPU (without it, or if the
    /// thread cannot be made, the loop renders the whole picture itself).
    public func startPictureWorker() {
        if PictureWorker.isUseful { _ = pictureWorker.start() }
    }

    public var rendersOnTwoCores: Bool { pictureWorker.isRunning }

    public func stop() {
        thread.stop()
        painter.stop()
        pictureWorker.stop()
        router.reviewer?.stop()
    }

    /// Boot-clock seconds when the first frame reached the screen; nil before.
    public var firstFlipBootSeconds: Double? { exchange.firstFlipBootSeconds }

    /// A copy of the statistics, made by the loop between two frames (nil if it does not
    /// answer within `timeout` seconds). One caller thread at a time.
    public func currentStatistics(timeout: Double = 1) -> Statistics? {
        exchange.ask(timeout: timeout, wake: { thread.wake() }, gaveUp: { ended.load(ordering: .acquiring) })
    }

    private func answerStatisticsRequest() {
        guard exchange.isAsked else { return }
        statistics.countFlips(of: display)
        exchange.answer(with: statistics)
    }

    /// The loop's realtime priority: above every ordinary thread, below the kernel's
    /// threaded interrupt handlers (50), which must still reach the sensor and the display.
    public static let realtimePriority: Int32 = 40
    static let priority = WorkerThread.Priority.realtime(realtimePriority)

    /// Puts the calling thread (a benchmark's that drives `step`) at the loop's realtime
    /// priority, and notes in the statistics whether that worked.
    public func enterRealtimeScheduling() {
        statistics.scheduling = FrameLoop.priority.describe(result: FrameLoop.priority.applyToCallingThread())
    }

    private func run() {
        statistics.scheduling = thread.scheduling
        if pictureWorker.isRunning { statistics.scheduling += ", the picture in bands on two cores" }
        // What the sensor said before this loop existed (a display opened again).
        status.sensor = cameraStatus.latestSensorReport()
        carryOut(model.take(status, sensorChanged: true, now: clock.now()))
        var descriptors = [display.descriptor, preview.wakeDescriptor, thread.wakeDescriptor, input?.descriptor ?? -1,
                           cameraStatus.wakeDescriptor].map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let failure = Int16(POLLERR | POLLHUP | POLLNVAL)
        while !thread.isStopping {
            for i in 0..<descriptors.count { descriptors[i].revents = 0 }
            let ready = pollWaiting(&descriptors, seconds: pollTimeout(at: clock.now()))
            if ready < 0 && errno != EINTR { break }
            // A display that reports an error (unplugged, driver gone) ends the loop; the
            // main thread notices and opens a display again.
            if descriptors[0].revents & failure != 0 { break }
            if descriptors[2].revents & Int16(POLLIN) != 0 { drainWakeUp() }
            if descriptors[0].revents & Int16(POLLIN) != 0 { displayEvents() }
            if descriptors[1].revents & Int16(POLLIN) != 0 { preview.drainWake() }
            if descriptors[3].revents & Int16(POLLIN) != 0 { handleInput(at: clock.now()) }
            if descriptors[4].revents & Int16(POLLIN) != 0 { cameraStatus.drainWake() }
            step(now: clock.now())
        }
        ended.store(!thread.isStopping, ordering: .releasing)
    }

    /// Seconds to sleep: until the next part of a frame is due (to the microsecond: a latch
    /// is a millisecond before its vblank); a vblank while something moves on screen;
    /// otherwise until the next event, or the moment the controls start to fade.
    public func pollTimeout(at now: Double) -> Double {
        if let presentDueAt, !display.flipPending { return max(0, presentDueAt - now) }
        if model.isAnimating(at: now) || display.flipPending { return 0.016 }
        return model.secondsUntilChange(at: now) ?? 0.5
    }

    // MARK: one turn of the loop (also driven directly by `reflex bench frame`)

    /// Reads the display's events: a completed flip frees the next frame.
    public func displayEvents() {
        guard display.handleEvents() else { return }
        if aim.flipCompleted(at: clock.now(), interval: display.vblankInterval) { statistics.lateFrames += 1 }
        // The flip that showed an input's effect: the wait the photographer saw.
        if let waited = inputToScreen.flipped(at: clock.now()) { statistics.inputLatency.record(seconds: waited) }
        exchange.flipped()
    }

    /// Takes what the sensor sent and, if the panel is free and something changed, presents.
    public func step(now: Double) {
        answerStatisticsRequest()
        let sensorChanged = cameraStatus.update(&status)
        carryOut(model.take(status, sensorChanged: sensorChanged, now: now))
        // (A movie's next picture is a new frame as a sensor's is.)
        if router.followReview(&model) || preview.takeFrame() != nil { newFrame = true }
        // The shutter held, the self-timer and the interval: their photos as they fall due.
        router.followDrive(model: &model, now: now)
        model.followCountdown(at: now)
        // The zoom label follows the ramp frame by frame (a repaint each tenth).
        model.controller.settleZoom(at: now)
        analysis?.setWanted(model.state.settings.autoZoom)
        let framing = model.frame(analysis?.newestSnapshot(), available: analysis?.isAvailable ?? false, at: now)
        // The camera's own zoom control takes what it can (on the sensor thread).
        router.follow(framing)
        // Asked for at once, even while a flip is queued: the painter has until it is done.
        let frame = preview.currentFrame
        let layout = composer.layout(sourceWidth: frame?.width ?? report.width, sourceHeight: frame?.height ?? report.height)
        if painter.request(model.state, layout: layout, scales: model.scales) { shownStates.publish(model.state) }
        if display.flipPending {
            guard now - presentedAt > FrameLoop.flipTimeout else { return }
            display.abandonFlip()
            statistics.stalledFlips += 1
        }
        if let prepared {
            latchWhenDue(prepared, now: now)
            return
        }
        // A frame for a new sensor frame, new layers (a change, painted), or an animation step.
        let layersChanged = (painter.newestLayers()?.generation ?? 0) != presentedGeneration
        guard newFrame || layersChanged || model.isAnimating(at: now) else {
            // (Nothing to show after all: an animation ended while its frame was due.)
            presentDueAt = nil
            return
        }
        // Its picture begins as late as it safely can for the coming vblank, so it shows the
        // newest sensor frame; nil: no vblank to aim at (or no flip yet to know its phase).
        let (vblank, startAt) = aim.picture(at: now, interval: display.vblankInterval)
        presentDueAt = startAt
        guard startAt == nil else { return }
        guard let picture = preparePicture(frame, now: now, framing: framing, layout: layout, vblank: vblank) else {
            statistics.refusedFlips += 1
            return
        }
        prepared = picture
        latchWhenDue(picture, now: clock.now())
    }

    /// A frame whose latch is due goes out before an input is taken: the input's work would
    /// make it miss its vblank, and its effect is for the next frame anyway.
    private func latchIfDue(now: Double) {
        guard let prepared, let latchAt = prepared.latchAt, now >= latchAt, !display.flipPending else { return }
        latchWhenDue(prepared, now: now)
    }

    /// Latches the prepared picture when its moment comes: what shows input is laid over it
    /// as late as it safely can be, so an input that came while the picture was drawn
    /// shows at this vblank. The layers of a change asked before the picture began are
    /// waited for within `paintPatience`; past it the frame goes out with the layers it has.
    private func latchWhenDue(_ picture: PreparedPicture, now: Double) {
        if let latchAt = picture.latchAt, now < latchAt {
            presentDueAt = latchAt
            return
        }
        if (painter.newestLayers()?.generation ?? 0) < picture.generationAsked {
            var patienceEnds = picture.startedAt + paintPatience
            if let latchAt = picture.latchAt, let interval = display.vblankInterval, paintPatience < interval {
                patienceEnds = min(patienceEnds, latchAt)
            }
            if now < patienceEnds {
                presentDueAt = patienceEnds
                return
            }
            statistics.lateInterfaceFrames += 1
        }
        presentDueAt = nil
        prepared = nil
        let allocationsBefore = reflex_thread_allocations()
        let started = clock.now(), startedRunning = threadCPUSeconds()
        guard queue(picture, now: started) else {
            statistics.refusedFlips += 1
            return
        }
        let finished = clock.now(), finishedRunning = threadCPUSeconds()
        aim.queued(for: picture.vblank, latchAt: picture.latchAt, started: started, pictureSeconds: picture.seconds,
                   latchSeconds: finished - started)
        let missed = display.missedVblanks ?? 0
        statistics.frameQueued(picture, latchStarted: started, finished: finished,
                               latchRunningSeconds: finishedRunning - startedRunning, missedVblanks: missed - missedAtLastFrame,
                               latchAllocations: Int(reflex_thread_allocations() - allocationsBefore))
        (missedAtLastFrame, presentedAt) = (missed, finished)
    }

    /// Touches and turns, through the interface's rules; changed settings go to the sensor
    /// and to the saving thread, and show in this same frame.
    private func handleInput(at now: Double) {
        guard let input else { return }
        takeInput(now: now) { batch in
            input.dispatch(width: display.width, height: display.height, rotation: display.rotation) { event, time in
                router.apply(event, at: time, now: now, to: &model, batch: &batch)
            }
        }
    }

    /// An input event from elsewhere than libinput, at its own time (`reflex bench frame`'s
    /// injected turns, where the machine has no /dev/uinput); from the thread driving the loop.
    public func inject(_ event: InputEvent, at time: Double) {
        let now = clock.now()
        takeInput(now: now) { router.apply(event, at: time, now: now, to: &model, batch: &$0) }
    }

    /// An input event from another thread of this process, taken by the loop's own thread at
    /// its next turn (`PostedInputs`); false if the loop has 64 waiting.
    @discardableResult
    public func post(_ event: InputEvent, at time: Double) -> Bool {
        guard posted.post(event, at: time) else { return false }
        thread.wake()
        return true
    }

    /// A phone's control from the remote's thread, taken by the loop's at its next turn as
    /// the camera's own input is; false if 16 are waiting.
    @discardableResult
    public func post(_ control: RemoteControl, at time: Double) -> Bool {
        guard remoteControls.post(control, at: time) else { return false }
        thread.wake()
        return true
    }

    /// A wake-up's events (after a frame whose latch is due), felt and sent as one, and the
    /// wait for the flip that shows them begun at the oldest with something to see. (What Auto
    /// metered is for the dials' first stop out of Auto.)
    private func takeInput(now: Double, _ events: (inout InputRouter.Batch) -> Void) {
        latchIfDue(now: now)
        var batch = InputRouter.Batch(metered: MeteredValues(iso: ISOSpeed(report.iso), exposureSeconds: report.exposureSeconds,
                                                             focus: report.focus, kelvin: report.kelvin))
        events(&batch)
        router.settle(batch, model: &model, now: now)
        inputToScreen.inputTaken(visibleAt: batch.oldestVisible)
    }

    /// What the status asked of the loop: a pulse, the settings sent on, a new histogram.
    private func carryOut(_ effects: ScreenModel.Effects) {
        router.carryOut(effects, settings: model.state.settings)
        if effects.histogramChanged { composer.overlayChanged() }
    }

    /// Draws `frame` (the newest sensor frame) into the display's back buffer for the vblank
    /// at `vblank`, timed; nil if the display refused.
    private func preparePicture(_ frame: PreviewFrame?, now: Double, framing: Framing, layout: ScreenLayout,
                                vblank: Double?) -> PreparedPicture? {
        let allocationsBefore = reflex_thread_allocations()
        let started = clock.now(), startedRunning = threadCPUSeconds()
        guard composer.drawPicture(frame, review: router.reviewer?.shownFrame, model: model, layout: layout, framing: framing,
                                   now: now) else { return nil }
        newFrame = false
        let finished = clock.now()
        let latchAt = aim.latch(for: vblank, interval: display.vblankInterval)
        return PreparedPicture(startedAt: started, seconds: finished - started,
                               runningSeconds: threadCPUSeconds() - startedRunning,
                               allocations: Int(reflex_thread_allocations() - allocationsBefore), vblank: vblank, latchAt: latchAt,
                               generationAsked: painter.requestedGeneration, layout: layout, framing: framing)
    }

    /// Queues the prepared picture with the newest painted layers; false if the display
    /// refused it. The frame carries an input's effect once its layers are the newest asked for.
    private func queue(_ picture: PreparedPicture, now: Double) -> Bool {
        // The newest painted layers, taken once: the painter may finish more meanwhile.
        let layers = painter.newestLayers()
        let showHistogram = report.hasHistogram && model.state.screen == .live && model.state.review == nil
        guard composer.queue(picture, layers: layers, model: model, showHistogram: showHistogram, now: now) else { return false }
        presentedGeneration = layers?.generation ?? 0
        inputToScreen.frameQueued(showsNewestInput: (layers?.generation ?? 0) >= painter.requestedGeneration)
        return true
    }
}
