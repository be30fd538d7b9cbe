import ReflexCore

/// When the realtime loop makes each part of a frame, aimed at the display's vblanks: the
/// picture as late as it can safely start for the coming vblank (so it shows the newest
/// sensor frame), the latch as late as it can safely be, both learnt from the frames before
/// (`FrameDeadlines`), and whether each frame showed at the vblank it was made for. Pure: the
/// times come in as arguments.
struct VblankAim {
    /// When the last flip completed (0 before one: no phase to aim at yet).
    private(set) var lastFlipAt = 0.0
    private var deadlines = FrameDeadlines()
    /// Whether the frame queued last was latched when due and committed before its vblank: if
    /// it is shown late all the same, the latch moves earlier.
    private var latchedOnTime = false
    /// The vblank the frame queued last was made for (nil: none to aim at).
    private var queuedFor: Double?

    /// A flip completed at `now` on a display of vblanks `interval` apart (nil: none). True
    /// when it showed after the vblank its frame was made for (the driver's counter may not
    /// see a commit that just missed: this is the loop's own reckoning).
    mutating func flipCompleted(at now: Double, interval: Double?) -> Bool {
        lastFlipAt = now
        guard let target = queuedFor, let interval else { return false }
        let late = now > target + interval / 2
        deadlines.flipCompleted(missed: late, latchedOnTime: latchedOnTime)
        return late
    }

    /// For a frame wanted at `now`: the vblank it is for (nil: none to aim at, draw now), or
    /// the moment its picture should start when that is still to come.
    func picture(at now: Double, interval: Double?) -> (vblank: Double?, startAt: Double?) {
        guard let interval, interval > 0, lastFlipAt > 0 else { return (nil, nil) }
        let coming = FrameDeadlines.vblank(after: now, lastFlip: lastFlipAt, interval: interval)
        let start = coming - deadlines.pictureLead(interval: interval)
        return now < start ? (coming, start) : (coming, nil)
    }

    /// When the latch of a frame for `vblank` should begin.
    func latch(for vblank: Double?, interval: Double?) -> Double? {
        guard let vblank, let interval else { return nil }
        return vblank - deadlines.latchLead(interval: interval)
    }

    /// A frame was queued for `vblank`: its latch began at `started` (due at `latchAt`) and
    /// took `latchSeconds`, after a picture of `pictureSeconds`.
    mutating func queued(for vblank: Double?, latchAt: Double?, started: Double, pictureSeconds: Double,
                         latchSeconds: Double) {
        // Begun within half a millisecond of its moment and committed before its vblank: a miss
        // is then the latch's lead to learn. A latch that itself ran past the vblank (the host
        // took the CPU in the middle of it: a virtual machine's steal) explains its own miss, as
        // a slow run does; the runs' lengths set the lead, and it stays.
        latchedOnTime = latchAt.map { started - $0 < 0.0005 } ?? false
            && vblank.map { started + latchSeconds < $0 } ?? false
        queuedFor = vblank
        deadlines.record(pictureSeconds: pictureSeconds, latchSeconds: latchSeconds)
    }
}
