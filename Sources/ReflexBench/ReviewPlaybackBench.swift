import CAllocationCounter
import ReflexCore
import ReflexHardware
import ReflexRuntime
import ReflexSystem
import ReflexUI
#if canImport(Glibc)
import Glibc
#endif

/// The realtime loop while review plays a movie: the loop on the headless display at 60 Hz,
/// driven as the camera's main thread drives it, review's thread playing `movie` from the
/// card at `card` (the play key, then Enter, injected into the loop). Reports the loop's
/// frames while the movie plays (their times, missed vblanks, allocations) and the pictures
/// the review thread passed over because they came late.
struct ReviewPlaybackBench {
    let card: String
    let screen: [Int]
    let seconds: Double

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
        // The play key: the movie's poster; a second later Enter plays it.
        loop.inject(.key(code: KeyCode.play, pressed: true), at: monotonicSeconds())
        drive(loop, display: display, for: 1)
        let before = loop.statistics.ring, allocationsBefore = reflex_thread_allocations()
        loop.inject(.key(code: 28, pressed: true), at: monotonicSeconds())
        drive(loop, display: display, for: seconds)
        let stepAllocations = reflex_thread_allocations() - allocationsBefore
        let summary = loop.statistics.ring.summary(since: before)
        let playing = lines.matching(["review: playing"]).first ?? "review: the movie did not play"
        let late = lines.matching(["came too late"]).first ?? "no picture passed over"
        print("  the loop while review plays the movie (\(loop.statistics.scheduling)): \(summary.description); "
              + "the loop's turns allocated \(stepAllocations) times")
        print("    \(playing); \(late) (targets: 0 missed vblanks, p99 far under 8 ms, no picture passed over)")
    }

    /// The loop's turns for `seconds`, each when its display or its own wake-up says so.
    private func drive(_ loop: FrameLoop, display: HeadlessDisplay, for seconds: Double) {
        var descriptors = [pollfd(fd: display.descriptor, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: loop.wakeDescriptor, events: Int16(POLLIN), revents: 0)]
        let until = monotonicSeconds() + seconds
        while monotonicSeconds() < until {
            for i in 0..<descriptors.count { descriptors[i].revents = 0 }
            _ = pollWaiting(&descriptors, seconds: min(loop.pollTimeout(at: monotonicSeconds()), 0.02))
            if descriptors[1].revents & Int16(POLLIN) != 0 { loop.drainWakeUp() }
            if descriptors[0].revents & Int16(POLLIN) != 0 { loop.displayEvents() }
            loop.step(now: monotonicSeconds())
        }
    }
}
