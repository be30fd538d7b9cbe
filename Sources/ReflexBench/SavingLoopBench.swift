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

/// Photos saved in the background while something else is measured: `count` RAW+JPEG photos
/// of `frame`, queued at once to a photo thread writing to `folder`.
final class BackgroundSaves: @unchecked Sendable {
    let photos: PhotoPipeline
    let count: Int
    private let ring: ZeroLagRing
    private let frame: LargeFrame
    private var started = 0.0

    init(frame: LargeFrame, count: Int, folder: String) throws {
        self.frame = frame
        self.count = count
        try AtomicFile.createFolder(folder)
        let ring = ZeroLagRing(ringFrames: 1, spares: count, frameBytes: frame.layout.byteCount)
        self.ring = ring
        photos = PhotoPipeline(numbering: CardNumbering(card: PhotoCard(root: folder), counter: PhotoCounter(folder: folder)),
                               describer: PhotoDescriber(calibration: .simulated, software: "Reflex bench"),
                               status: StatusBoard(), giveBack: { ring.giveBack($0) }, log: { _ in })
    }

    /// Queues every photo (their frames copied first) and starts saving them.
    func start() throws {
        var settings = CameraSettings()
        settings.format = .rawPlusJPEG
        for index in 0..<count {
            ring.deliver(frame.sensorFrame(sequence: UInt32(index)))
            guard let copy = ring.take(sequence: UInt32(index)) else { throw BenchError("no memory for photo \(index)") }
            let press = ControlMailbox.CaptureRequest(number: index + 1, ticket: index + 1, pressedAt: monotonicSeconds(),
                                                      framing: Framing(zoom: 1), format: nil)
            let capture = TakenPhoto(frame: copy, press: press, settings: settings, iso: 200, framesLate: 0,
                                       pressedAt: PhotoClock.localTime(atMonotonic: monotonicSeconds()))
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
    }
}
