import ReflexHardware
import ReflexSystem
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The thread: starting and stopping the loop and its helpers, its realtime priority,
/// the statistics asked by other threads, and the poll() on the display, the sensor, the
/// input and the loop's own wake-up that drives each turn.
extension FrameLoop {
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

    private var pictureWorker: PictureWorker { composer.pictureWorker }

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
}
