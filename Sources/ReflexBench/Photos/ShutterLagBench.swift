import ReflexCore
import ReflexHardware
import ReflexRuntime
import ReflexStorage
import ReflexSystem
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Shutter lag on the simulated sensor: presses at random moments, each photo saved through
/// the camera's own pipeline, and the frame it holds against the frame that was under way at
/// the press (from the frames' kernel timestamps, recorded as they came). The reference is
/// what a shutter without a ring of past frames takes: the first frame to start after the
/// press has reached the sensor thread.
struct ShutterLagBench {
    let presses: Int
    let folder: String

    /// Each frame's sequence, its timestamp and when the sensor thread handled it.
    final class Timeline: FrameSink, @unchecked Sendable {
        let name = "timeline"
        let framesLost = 0
        private let frames = Mutex<[(sequence: UInt32, end: Int64, handled: Int64)]>([])

        func deliver(_ frame: SensorFrame) {
            let handled = Int64(monotonicSeconds() * 1e9)
            frames.withLock { $0.append((frame.sequence, frame.timestampNanoseconds, handled)) }
        }

        var recorded: [(sequence: UInt32, end: Int64, handled: Int64)] { frames.withLock { $0 } }

        /// A photo of frame `sequence` for a press at `press` (nanoseconds): how many frames it
        /// came after the one under way at the press, and how many a shutter without past
        /// frames would have (the first frame to start after the sensor thread heard of the
        /// press, when it handled its next frame); nil if no frame was under way.
        func lag(press: Int64, sequence: UInt32) -> (frames: Int, withoutRing: Int?)? {
            let frames = recorded
            guard let expected = frames.first(where: { $0.end >= press }) else { return nil }
            var withoutRing: Int?
            if let heard = frames.first(where: { $0.handled >= press })?.handled,
               let next = frames.first(where: { $0.end - ShutterLagBench.periodNanoseconds >= heard }) {
                withoutRing = Int(next.sequence) - Int(expected.sequence)
            }
            return (Int(sequence) - Int(expected.sequence), withoutRing)
        }
    }

    static let periodNanoseconds = Int64(1e9) / Int64(SimulatedCamera.framesPerSecond)

    func run() throws {
        try AtomicFile.createFolder(folder)
        let timeline = Timeline()
        var settings = CameraSettings()
        settings.format = .jpeg
        let sensor = SensorPipeline(settings: settings, calibration: .simulated,
                                    choice: CameraChoice(source: .simulated(.absoluteExposure)), log: { _ in })
        let ring = ZeroLagRing(ringFrames: 6, spares: 4, frameBytes: 0)
        let photos = PhotoPipeline(numbering: CardNumbering(card: PhotoCard(root: folder), counter: PhotoCounter(folder: folder)),
                                   describer: PhotoDescriber(calibration: .simulated, software: "Reflex bench"),
                                   status: sensor.status, giveBack: { ring.giveBack($0) }, log: { _ in })
        sensor.takePhotos(ring: ring, photos: photos)
        sensor.mailbox.attach(timeline)
        photos.start()
        sensor.start()
        defer {
            sensor.stop()
            photos.stop()
        }
        usleep(1_000_000)
        srandom(7)  // the same moments each run
        var tickets: [(ticket: Int, press: Int64)] = []
        for _ in 0..<presses {
            // 120…250 ms apart: anywhere in a frame's period.
            usleep(UInt32(120_000 + random() % 130_000))
            let press = monotonicSeconds()
            guard let ticket = sensor.mailbox.requestRemoteCapture(at: press, format: nil) else {
                throw BenchError("the shutter refused a press")
            }
            tickets.append((ticket, Int64(press * 1e9)))
        }
        var underWay = 0, late = 0, lagFrames = 0.0, nextFrameLag = 0.0, missing = 0
        for (ticket, press) in tickets {
            guard let result = photos.waitForResult(ticket: ticket, seconds: 30), result.error == nil,
                  let lag = timeline.lag(press: press, sequence: result.sequence) else {
                missing += 1
                continue
            }
            if lag.frames == 0 { underWay += 1 } else { late += 1 }
            lagFrames += Double(lag.frames)
            nextFrameLag += Double(lag.withoutRing ?? 0)
        }
        let counted = Double(max(presses - missing, 1))
        print("Shutter lag: \(presses) presses at random moments on the simulated sensor (1280x720, 30 fps), "
              + "each saved as a JPEG")
        print("  zero-lag ring: \(underWay) of \(presses) photos hold the frame under way at the press; "
              + "\(late) later, \(missing) not saved; mean \(Formatting.fixed(lagFrames / counted, 2)) frames late")
        print("  reference, a shutter without past frames (the next frame to start): mean "
              + "\(Formatting.fixed(nextFrameLag / counted, 2)) frames late "
              + "(\(Formatting.fixed(nextFrameLag / counted * 1000 / 30, 0)) ms)")
        print("  target: every photo the frame under way at the press (0 frames late)")
    }
}
