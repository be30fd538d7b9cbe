import CAllocationCounter
import ReflexCore
import ReflexHardware
import ReflexSystem
import ReflexUI

/// One turn of the loop (also driven directly by `reflex bench frame`): the sensor's frame
/// and the status taken, the picture drawn for the coming vblank, then latched with the
/// newest painted layers and queued.
extension FrameLoop {
    /// A flip whose event has not come after this long is given up (and counted).
    static let flipTimeout = 0.5

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
    /// make it miss its vblank, and its effect is for the next frame anyway. (Internal only for
    /// `takeInput`, in FrameLoop+Input.swift: the loop's own step, no API.)
    internal func latchIfDue(now: Double) {
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

    /// Answers `currentStatistics` (FrameLoop+Thread.swift), asked from another thread, between two frames.
    private func answerStatisticsRequest() {
        guard exchange.isAsked else { return }
        statistics.countFlips(of: display)
        exchange.answer(with: statistics)
    }

    /// What the status asked of the loop: a pulse, the settings sent on, a new histogram.
    /// (Internal only for `run`, in FrameLoop+Thread.swift: the loop's own step, no API.)
    internal func carryOut(_ effects: ScreenModel.Effects) {
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
