import ReflexSystem

/// How the file sensor plays footage on a machine slower than the file: the thread reading it
/// yields to the camera's own threads, and a late read catches up a few pictures at most.
struct FootagePacing {
    /// Footage costs the thread that reads the sensor a decode and a mosaic a frame, work a
    /// real sensor's hardware does for nothing. Real-time footage therefore drops the reading
    /// thread below the camera's own threads (nice 10, under the analysis's 5), so on a slow
    /// machine the twin does not starve what a real board would run: it plays slower instead.
    static let nice: Int32 = 10

    /// Pictures of footage a frame moves on at most: a late sensor thread decodes those it
    /// missed, and on a machine that decodes slower than the file's rate, catching up on
    /// every one would take longer each time (a frame in 6 s, then in 9, 16, 26, 50 s, seen
    /// under a slow emulator). Beyond this many the footage plays slower instead: the frame
    /// with sequence N still shows picture N − 1.
    static let catchUp: UInt64 = 3

    private var yielded = false

    /// The sensor frames a read of the timer's `expirations` makes: all of them for the
    /// synthetic scene, at most `catchUp` while footage plays.
    static func framesMade(expirations: UInt64, playingFootage: Bool) -> UInt64 {
        playingFootage ? min(expirations, catchUp) : expirations
    }

    /// Drops the calling (reading) thread to `nice`, once per camera.
    mutating func yieldLikeHardware() {
        guard !yielded else { return }
        yielded = true
        _ = WorkerThread.Priority.yielding(nice: FootagePacing.nice).applyToCallingThread()
    }
}
