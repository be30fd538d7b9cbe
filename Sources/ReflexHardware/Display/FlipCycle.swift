/// A double-buffered display's turn between two flips: a picture prepared in the back buffer,
/// queued as a flip, the flip done. The DRM display and its headless twin keep it the same
/// way, so both refuse the same things: no picture prepared while a flip is pending, no flip
/// queued without a prepared picture, and each prepared picture queued once.
struct FlipCycle {
    /// A flip was asked for and its event has not come: the next frame must wait.
    private(set) var flipPending = false
    /// A picture is drawn in the back buffer and not queued yet.
    private var prepared = false

    /// Draws the picture with `draw` when the back buffer is free (false: a flip is pending);
    /// a draw that fails leaves nothing prepared.
    mutating func prepare(_ draw: () throws(DisplayError) -> Void) throws(DisplayError) -> Bool {
        guard !flipPending else { return false }
        try draw()
        prepared = true
        return true
    }

    /// Whether the prepared picture may be queued now: true once a picture, and it is then
    /// taken (queue it, then `flipQueued`).
    mutating func takePrepared() -> Bool {
        guard prepared, !flipPending else { return false }
        prepared = false
        return true
    }

    mutating func flipQueued() { flipPending = true }

    /// The flip's event came, or it was given up.
    mutating func flipEnded() { flipPending = false }
}
