import ReflexCore
import ReflexHardware
import ReflexRuntime
import ReflexStorage
import ReflexSystem

/// The realtime loop while photos are saved: `reflex bench frame` with RAW+JPEG photos of a
/// large frame going through the photo thread (at its background priority) during the
/// measured frames.
struct SavingLoopBench {
    let frame: LargeFrame
    let saves: Int
    let folder: String
    let testdata: String?

    func run() throws {
        print("The realtime loop while \(saves) RAW+JPEG photos of the \(frame.megapixels) frame are saved:")
        var arguments = ["--frames", "1200", "--while-saving", String(saves), "--saving-folder", folder,
                         "--saving-size", "\(frame.layout.width)x\(frame.layout.height)"]
        if let testdata { arguments += ["--testdata", testdata] }
        try FrameBench.parse(arguments).run()
    }
}

/// Photos saved in the background while something else is measured: `count` photos of
/// `frame` in `format`, queued at once to a photo thread writing to `folder`. A merged format's
/// photo takes its alternates from a ring of frames of their own (each rendered with its own
/// noise), as a press does, so the merge does its whole work.
final class BackgroundSaves: @unchecked Sendable {
    let photos: PhotoPipeline
    let count: Int
    let format: CaptureFormat
    private let ring: ZeroLagRing
    private let frame: LargeFrame
    private let alternates: [LargeFrame]
    private var started = 0.0

    init(frame: LargeFrame, count: Int, folder: String, format: CaptureFormat = .rawPlusJPEG) throws {
        self.frame = frame
        self.count = count
        self.format = format
        try AtomicFile.createFolder(folder)
        let burst = format.merges ? TakenPhoto.mergedFramesAtMost : 1
        // (The ring's frames and a burst's worth of spares for each photo: 64 copies at most.)
        guard burst * (count + 1) <= 64 else { throw BenchError("at most \(64 / burst - 1) photos in \(format.rawValue)") }
        alternates = (1..<burst).map { LargeFrame(width: frame.layout.width, height: frame.layout.height, frameNumber: UInt64(1 + $0)) }
        let ring = ZeroLagRing(ringFrames: burst, spares: count * burst, frameBytes: frame.layout.byteCount)
        self.ring = ring
        photos = PhotoPipeline(numbering: CardNumbering(card: PhotoCard(root: folder), counter: PhotoCounter(folder: folder)),
                               describer: PhotoDescriber(calibration: .simulated, software: "Reflex bench"),
                               status: StatusBoard(), giveBack: { ring.giveBack($0) }, log: { _ in })
    }

    /// Queues every photo (their frames copied first) and starts saving them.
    func start() throws {
        var settings = CameraSettings()
        settings.format = format
        let burst = UInt32(alternates.count + 1)
        for index in 0..<count {
            let first = UInt32(index) * burst
            for (offset, source) in ([frame] + alternates).enumerated() {
                ring.deliver(source.sensorFrame(sequence: first + UInt32(offset)))
            }
            guard let copy = ring.take(sequence: first) else { throw BenchError("no memory for photo \(index)") }
            let press = ControlMailbox.CaptureRequest(number: index + 1, ticket: index + 1, pressedAt: monotonicSeconds(),
                                                      framing: Framing(zoom: 1), format: nil)
            var capture = TakenPhoto(frame: copy, press: press, settings: settings, iso: 200, framesLate: 0,
                                     pressedAt: PhotoClock.localTime(atMonotonic: monotonicSeconds()))
            ring.takeAlternates(around: first, count: alternates.count) { capture.addAlternate($0) }
            guard photos.inbox.send(capture) else { throw BenchError("the photo queue is full") }
        }
        started = monotonicSeconds()
        photos.start()
    }

    /// Photos saved so far, and the seconds since the first was queued.
    var progress: (saved: Int, seconds: Double) {
        let saved = (1...count).filter { photos.result(forTicket: $0)?.number != nil }.count
        return (saved, monotonicSeconds() - started)
    }

    func stop() {
        photos.stop()
        frame.free()
        alternates.forEach { $0.free() }
    }
}
