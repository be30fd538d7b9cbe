import CAllocationCounter
import ReflexCore
import ReflexHardware
import ReflexRuntime
import ReflexSystem
import ReflexUI
#if canImport(Glibc)
import Glibc
#endif

/// The realtime loop while review works: the loop on the headless display at 60 Hz, driven
/// as the camera's main thread drives it, review's thread on the card at `card`, the
/// photographer's input injected into the loop. Either review plays the card's movie (the
/// play key, then Enter), reporting the pictures passed over because they came late too; or
/// a finger drags the index up 8 pixels a frame (the play key, the zoom-out key, then the
/// touches), review's thread reading new rows' thumbnails as they come into view. Reports the
/// loop's frames meanwhile: their times, missed vblanks, allocations.
struct ReviewLoopBench {
    enum Activity { case moviePlays, indexScrolls }

    let card: String
    let screen: [Int]
    let seconds: Double
    var activity = Activity.moviePlays

    func run() throws {
        guard let fontFolder = FontLibrary.locate(environment: getenv("REFLEX_FONTS_DIR").map { String(cString: $0) },
                                                  executablePath: executablePath()) else {
            print("  the loop while a movie plays: skipped (no fonts: set REFLEX_FONTS_DIR)")
            return
        }
        let lines = LogLines()
        let display = try HeadlessDisplay(width: screen[0], height: screen[1], folder: nil)
        let reviewer = Reviewer(card: card, width: display.width, height: display.height, log: { lines.add($0) })
        let loop = FrameLoop(display: display, preview: PreviewSink(), status: StatusBoard(), mailbox: nil,
                             fonts: try FontLibrary(folder: fontFolder),
                             model: CameraModel(settings: CameraSettings(), limits: .unlimited), fNumber: 2.8, reviewer: reviewer)
        guard loop.startPainter(), reviewer.start() else { throw BenchError("cannot start the painter or review's thread") }
        defer { loop.stop() }
        loop.enterRealtimeScheduling()
        // The play key: the newest item; a second later Enter plays it, or the index opens.
        loop.inject(.key(code: KeyCode.play, pressed: true), at: monotonicSeconds())
        drive(loop, display: display, for: 1)
        var finger = Double(screen[1]) * 0.7
        if activity == .indexScrolls {
            loop.inject(.key(code: KeyCode.zoomOut, pressed: true), at: monotonicSeconds())
            drive(loop, display: display, for: 1)
            loop.inject(.touchDown(slot: 0, x: Double(screen[0]) / 2, y: finger), at: monotonicSeconds())
        }
        let before = loop.statistics.ring, allocationsBefore = reflex_thread_allocations()
        if activity == .moviePlays { loop.inject(.key(code: 28, pressed: true), at: monotonicSeconds()) }
        let (middle, bottom, top) = (Double(screen[0]) / 2, Double(screen[1]) * 0.7, Double(screen[1]) * 0.3)
        drive(loop, display: display, for: seconds) { now in
            guard activity == .indexScrolls else { return }
            // The finger 8 px further up each frame; at the top of its travel, lifted and put
            // down at the bottom again, as a thumb scrolls a long list.
            if finger - 8 < top {
                finger = bottom
                loop.inject(.touchUp(slot: 0), at: now)
                loop.inject(.touchDown(slot: 0, x: middle, y: finger), at: now)
            } else {
                finger -= 8
                loop.inject(.touchMotion(slot: 0, x: middle, y: finger), at: now)
            }
        }
        let stepAllocations = reflex_thread_allocations() - allocationsBefore
        let summary = loop.statistics.ring.summary(since: before)
        let what = activity == .moviePlays ? "plays the movie" : "scrolls the index under a finger (8 px a frame)"
        print("  the loop while review \(what) (\(loop.statistics.scheduling)): \(summary.description); "
              + "the loop's turns allocated \(stepAllocations) times")
        guard activity == .moviePlays else { return print("    (targets: 0 missed vblanks, p99 far under 8 ms)") }
        let playing = lines.matching(["review: playing"]).first ?? "review: the movie did not play"
        let late = lines.matching(["came too late"]).first ?? "no picture passed over"
        print("    \(playing); \(late) (targets: 0 missed vblanks, p99 far under 8 ms, no picture passed over)")
    }

    /// The loop's turns for `seconds`, each when its display or its own wake-up says so.
    /// `eachFrame` runs once a display frame (at its vblank), as a finger's moves come.
    private func drive(_ loop: FrameLoop, display: HeadlessDisplay, for seconds: Double, eachFrame: (Double) -> Void = { _ in }) {
        var descriptors = [pollfd(fd: display.descriptor, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: loop.wakeDescriptor, events: Int16(POLLIN), revents: 0)]
        let until = monotonicSeconds() + seconds
        while monotonicSeconds() < until {
            for i in 0..<descriptors.count { descriptors[i].revents = 0 }
            _ = pollWaiting(&descriptors, seconds: min(loop.pollTimeout(at: monotonicSeconds()), 0.02))
            if descriptors[1].revents & Int16(POLLIN) != 0 { loop.drainWakeUp() }
            if descriptors[0].revents & Int16(POLLIN) != 0 {
                loop.displayEvents()
                eachFrame(monotonicSeconds())
            }
            loop.step(now: monotonicSeconds())
        }
    }
}
