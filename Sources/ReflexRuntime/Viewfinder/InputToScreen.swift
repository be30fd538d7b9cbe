/// The wait a photographer sees between an input and its effect on screen: from the oldest
/// input event (kernel time) whose effect is not on screen yet, through the frame queued with
/// that effect, to that frame's flip. Kept by the realtime loop; never allocates.
struct InputToScreen {
    /// The oldest input whose effect is in no queued frame yet.
    private var waiting: Double?
    /// The oldest input whose effect is in the frame queued now.
    private var inFlip: Double?

    /// Input came whose effect will show (`visibleAt`: the oldest such event's time; nil: nothing to see).
    mutating func inputTaken(visibleAt time: Double?) {
        guard let time else { return }
        waiting = min(waiting ?? time, time)
    }

    /// A frame was queued; `showsNewestInput`: its layers are the newest the input asked for.
    mutating func frameQueued(showsNewestInput: Bool) {
        guard showsNewestInput, let waiting else { return }
        inFlip = min(inFlip ?? waiting, waiting)
        self.waiting = nil
    }

    /// The queued frame flipped at `now`: the wait its input saw, if it carried one.
    mutating func flipped(at now: Double) -> Double? {
        defer { inFlip = nil }
        return inFlip.map { now - $0 }
    }
}
