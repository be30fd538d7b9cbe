import ReflexCore
import ReflexHardware
import ReflexSystem

/// The loop's input: touches and turns from libinput, events injected or posted by other
/// threads and a phone's controls, each taken on the loop's thread through the interface's
/// rules (a frame whose latch is due goes out first).
extension FrameLoop {
    /// Clears the loop's wake-up and takes the input posted to it (`post`).
    public func drainWakeUp() {
        thread.drainWake()
        posted.takeEach { inject($0, at: $1) }
        remoteControls.takeEach { control, time in
            let now = clock.now()
            takeInput(now: now) { router.apply(control, at: time, now: now, to: &model, batch: &$0) }
        }
    }

    /// Touches and turns, through the interface's rules; changed settings go to the sensor
    /// and to the saving thread, and show in this same frame. (Internal only for `run`, in
    /// FrameLoop+Thread.swift: the loop's own step, no API.)
    internal func handleInput(at now: Double) {
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
        var batch = newBatch()
        events(&batch)
        router.settle(batch, model: &model, now: now)
        inputToScreen.inputTaken(visibleAt: batch.oldestVisible)
    }

    private func newBatch() -> InputRouter.Batch {
        InputRouter.Batch(metered: MeteredValues(iso: ISOSpeed(report.iso), exposureSeconds: report.exposureSeconds,
                                                 focus: report.focus, kelvin: report.kelvin))
    }

    /// Swift's runtime makes some types' metadata (review's optional controller among them)
    /// on the heap the first time code needs it. A touch every rule ignores (a cancel for a
    /// finger never down), taken before the loop runs, makes them: the first real touch then
    /// allocates nothing on the realtime thread. (It is noted as the newest input, and the
    /// screen follows the controls: nothing is sent anywhere.)
    func warmInputPath(now: Double) {
        var batch = newBatch()
        router.apply(.touchCancel(slot: Int.min), at: now, now: now, to: &model, batch: &batch)
        router.settle(batch, model: &model, now: now)
    }
}
