import ReflexCore
import ReflexFormats
import ReflexHardware
import ReflexISP
import ReflexStorage
import ReflexSystem
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The photo side: on a thread of the lowest priority (SCHED_IDLE and the idle I/O class, so
/// the viewfinder never waits for it), each photo the sensor thread took is developed into its
/// files, its frame handed back to the ring, then numbered and written to the card, one after
/// the other in the order of the presses. What happened goes to the status board.
public final class StillPipeline: @unchecked Sendable {
    public typealias Log = @Sendable (String) -> Void
    /// Photos that can wait at once (each holds a frame the ring lent).
    public static let queueCapacity = 16

    public let inbox = HandOffQueue<StillCapture>(capacity: StillPipeline.queueCapacity)
    private let card: PhotoCard
    private let counter: PhotoCounter
    private let developer: PhotoDeveloper
    private let status: StatusBoard
    private let log: Log
    private let thread = WorkerThread(name: "reflex-photo", priority: .background)
    /// Given each photo's frame once its files are made (the ring that lent it).
    private let giveBack: @Sendable (FrameCopy) -> Void
    private var report = PhotoReport()
    /// What became of other programs' presses (by ticket), the newest few.
    private let results = Mutex<[PhotoResult]>([])
    // (More than the longest burst a request may ask for: none is forgotten before it is read.)
    static let resultsKept = 4 * CaptureService.largestBurst
    /// The last number this camera used.
    private var lastNumber: PhotoNumber?

    public init(card: PhotoCard, counter: PhotoCounter, describer: PhotoDescriber, status: StatusBoard,
                giveBack: @escaping @Sendable (FrameCopy) -> Void, log: @escaping Log) {
        self.card = card
        self.counter = counter
        developer = PhotoDeveloper(describer: describer)
        self.status = status
        self.giveBack = giveBack
        self.log = log
    }

    /// Photos for `sensor`'s camera, saved to the card at `cardFolder`: a zero-lag ring
    /// within the memory budget (sized for the preview's frames at 16 bits a sample; they
    /// grow if a larger mode streams) becomes one of its sinks, and the photo thread starts.
    /// Returns the pipeline and how many frames the ring keeps.
    public static func start(for sensor: SensorPipeline, calibration: SensorCalibration, cardFolder: String,
                             stateFolder: String, software: String, log: @escaping Log) -> (StillPipeline, keptFrames: Int) {
        let budget = MemoryBudget.forFrames()
        // A still mode's frames come first: two (one saving while the next is taken) if the
        // budget has room, else one; the ring has what is left.
        let stillFrames: FramePool? = if calibration.stillSource == .modeSwitch, let width = calibration.stillWidth,
                                         let height = calibration.stillHeight {
            FramePool(count: budget >= 4 * width * height * 2 ? 2 : 1, frameBytes: width * height * 2)
        } else {
            nil
        }
        let ring = ZeroLagRing.sized(budgetBytes: max(0, budget - (stillFrames.map { $0.count * $0.frameBytes } ?? 0)),
                                     frameBytes: calibration.streamWidth * calibration.streamHeight * 2)
        let stills = StillPipeline(card: PhotoCard(root: cardFolder), counter: PhotoCounter(folder: stateFolder),
                                   describer: PhotoDescriber(calibration: calibration, software: software),
                                   status: sensor.status, giveBack: { ring.giveBack($0); stillFrames?.giveBack($0) }, log: log)
        sensor.takePhotos(ring: ring, stillFrames: stillFrames, stills: stills)
        stills.start()
        return (stills, ring.ringFrames)
    }

    @discardableResult
    public func start() -> Bool {
        let removed = card.removeLeftovers()
        if removed > 0 { log("photos: removed \(removed) unfinished file(s) an interrupted save left on the card") }
        return thread.start { self.run() }
    }

    /// Stops once the photos already queued are saved.
    public func stop() { thread.stop() }

    private func run() {
        while true {
            while let capture = inbox.receive() {
                save(capture)
                status.postPendingSaves(inbox.count)
            }
            if thread.isStopping { return }
            inbox.wait(milliseconds: 500)
        }
    }

    /// The result of the press with `ticket` (`ControlMailbox.requestRemoteCapture`), once saved or failed.
    public func result(forTicket ticket: Int) -> PhotoResult? {
        results.withLock { $0.first { $0.ticket == ticket } }
    }

    /// Waits (polling) for the result of the press with `ticket`, up to `seconds` or until
    /// `interrupted` says so; nil if none came.
    public func waitForResult(ticket: Int, seconds: Double, interrupted: () -> Bool = { false }) -> PhotoResult? {
        let deadline = monotonicSeconds() + seconds
        while monotonicSeconds() < deadline && !interrupted() {
            if let result = result(forTicket: ticket) { return result }
            usleep(10_000)
        }
        return result(forTicket: ticket)
    }

    private func record(_ result: PhotoResult) {
        guard result.ticket != nil else { return }
        results.withLock {
            $0.append(result)
            if $0.count > StillPipeline.resultsKept { $0.removeFirst() }
        }
    }

    private func save(_ capture: StillCapture) {
        var result = PhotoResult(ticket: capture.press.ticket, sequence: capture.frame.sequence,
                                 framesLate: capture.framesLate, exposureSeconds: capture.frame.exposure.exposure,
                                 iso: capture.iso)
        defer { record(result) }
        let developed: PhotoDeveloper.Developed
        do {
            developed = try developer.develop(capture)
        } catch {
            giveBack(capture.frame)
            result.error = "photo \(capture.press.number) cannot be made: \(error)"
            fail(result.error!)
            return
        }
        giveBack(capture.frame)
        do throws(SystemError) {
            let number = try nextNumber()
            let paths = try card.save(developed.files, as: number)
            (result.number, result.paths) = (number, paths)
            report.saved += 1
            report.lastNumber = number
            report.lastPaths = paths
            report.lastSequence = capture.frame.sequence
            report.lastFramesLate = capture.framesLate
            report.lastRawBytes = developed.files.first { $0.extension == "DNG" }.map { Int64($0.bytes.count) }
            report.lastJPEGBytes = developed.files.first { $0.extension == "JPG" }.map { Int64($0.bytes.count) }
            report.error = nil
            report.thumbnail = developed.thumbnail
            report.thumbnailWidth = developed.thumbnailWidth
            report.thumbnailHeight = developed.thumbnailHeight
            status.postPhoto(report)
            let late = capture.framesLate == 0 ? "" : ", \(capture.framesLate) frame(s) after the press"
            log("photo \(capture.press.number): frame \(capture.frame.sequence)\(late) → "
                + paths.map { String($0.split(separator: "/").last ?? "") }.joined(separator: " + "))
        } catch {
            result.error = "photo \(capture.press.number) not saved: \(error)"
            fail(result.error!)
        }
    }

    /// The next number: after the counter and the card's highest, and written down before
    /// the files, so a number is never used twice.
    private func nextNumber() throws(SystemError) -> PhotoNumber {
        // (The card is read again each time: it may have been changed, or filled elsewhere.)
        let last = [lastNumber, counter.load(), card.highestNumber()].compactMap { $0 }.max()
        guard let number = last == nil ? PhotoNumber.first : last!.next else {
            throw SystemError("number", path: card.dcim, code: ENOSPC)  // 999REFLX/RFLX9999 was the last
        }
        try counter.save(number)
        lastNumber = number
        return number
    }

    private func fail(_ message: String) {
        report.failed += 1
        report.error = message
        status.postPhoto(report)
        log(message)
    }
}
