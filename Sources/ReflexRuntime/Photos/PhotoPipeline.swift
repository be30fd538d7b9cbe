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

/// The photo side: on a thread of the lowest priority (nice 19 and the idle I/O class, so
/// the viewfinder never waits for it), each photo the sensor thread took is developed into its
/// files, its frame handed back to the ring, then numbered and written to the card, one after
/// the other in the order of the presses. What happened goes to the status board.
///
/// A photo that cannot be written (a full card, a card taken out, an I/O error) is never
/// lost: it is held, with every photo after it, in order, and the screen says why with Retry
/// and Discard (`decisions`). A retry writes the same bytes under the same number; a discard
/// drops that photo alone and takes any half of its pair off the card. Photos held for a
/// missing card are saved by themselves once it is back.
public final class PhotoPipeline: @unchecked Sendable {
    public typealias Log = @Sendable (String) -> Void
    /// Photos that can wait at once (each holds a frame the ring lent).
    public static let queueCapacity = 40

    /// Wakes the photo thread for a photo or a decision.
    private let wake = EventSignal()
    public let inbox: HandOffQueue<TakenPhoto>
    /// The newest interval run's photos as saved (for its timelapse).
    public let intervalRunPhotos = IntervalRunPhotos()
    /// Retry or Discard, from the screen.
    public let decisions: HandOffQueue<SaveDecision>
    private let card: PhotoCard
    /// The card's free bytes, nil while there is none (a card slot's mount point that has
    /// nothing mounted counts as none: a photo must not land on the internal disk).
    private let cardSpace: @Sendable () -> Int64?
    /// Photos developed and not yet all on the card, oldest first.
    private var held: [HeldPhoto] = []
    /// Why the oldest held photo is not saved (nil: nothing stands in the way).
    private var problem: SaveProblem?
    /// Whether the card was there at the last look (a new one is checked first).
    private var cardWasPresent = false
    /// Where held photos go when they would take too much memory (nil: they stay in memory).
    private let spill: HeldPhotoSpill?
    /// The photos' numbers, shared with the movies'.
    public let numbering: CardNumbering
    private let developer: PhotoDeveloper
    /// What the photos' files say (the shutter asks it where a photo was taken).
    public var describer: PhotoDescriber { developer.describer }
    private let status: StatusBoard
    private let log: Log
    private let thread: WorkerThread
    /// Given each photo's frame once its files are made (the ring that lent it).
    private let giveBack: @Sendable (FrameCopy) -> Void
    private var report = PhotoReport()
    /// What became of other programs' presses (by ticket), the newest few.
    private let results = Mutex<[PhotoResult]>([])
    // (More than the longest burst a request may ask for: none is forgotten before it is read.)
    static let resultsKept = 4 * CaptureService.largestBurst
    /// The kernel's memory pressure: under extreme pressure the photos waiting here to be
    /// developed are cancelled (each holds a whole frame).
    public var memoryPressure: MemoryPressureMonitor?

    public init(numbering: CardNumbering, describer: PhotoDescriber, status: StatusBoard,
                cardSpace: (@Sendable () -> Int64?)? = nil, spill: HeldPhotoSpill? = nil,
                priority: WorkerThread.Priority = .background, giveBack: @escaping @Sendable (FrameCopy) -> Void,
                log: @escaping Log) {
        thread = WorkerThread(name: "reflex-photo", priority: priority)
        self.spill = spill
        inbox = HandOffQueue(capacity: PhotoPipeline.queueCapacity, wakes: wake)
        decisions = HandOffQueue(capacity: 8, wakes: wake)
        let card = numbering.card, root = card.root
        self.cardSpace = cardSpace ?? { StorageProbe.freeBytes(at: root, requireMountPoint: false) }
        self.card = card
        self.numbering = numbering
        developer = PhotoDeveloper(describer: describer, parallel: PhotoHelperThreads.parallelWork(priority: priority))
        self.status = status
        self.giveBack = giveBack
        self.log = log
    }

    @discardableResult
    public func start() -> Bool {
        thread.start { self.run() }
    }

    /// A card that is there now and was not before (at start too) is checked: what a cut or a
    /// killed save left unfinished on it goes, before anything is written.
    private func checkCardIfNew() {
        let present = cardSpace() != nil
        defer { cardWasPresent = present }
        guard present, !cardWasPresent else { return }
        let found = card.removeLeftovers()
        log("photos: card at \(card.root) checked" + (found.removed > 0
            ? ": removed \(found.removed) unfinished file(s) an interrupted save or delete left" : ", nothing unfinished"))
        for movie in found.moviesRecovered {
            log("movies: \(movie) was interrupted (a power cut or a crash): kept up to its last whole second")
        }
    }

    /// Stops once the photos already queued are saved.
    /// Stops the photo thread (and the memory-pressure watch it was given).
    public func stop() {
        thread.stop()
        memoryPressure?.stop()
    }

    private func run() {
        var developedSinceTrim = false
        if let recovered = spill?.recover(), !recovered.isEmpty {
            held = recovered
            log("photos: \(recovered.count) photo(s) held when the camera last stopped are queued again")
        }
        while true {
            checkCardIfNew()
            while let decision = decisions.receive() { decide(decision) }
            if memoryPressure?.level.cancelsWaitingPhotos == true { cancelWaiting() }
            // One photo developed at a time, each saved as soon as nothing stands in the way:
            // the ring gets its frame back at once, the card gets photos in order.
            if let capture = inbox.receive() {
                develop(capture)
                developedSinceTrim = true
            } else if thread.isStopping {
                // Photos that cannot be saved now are lost with the process: said.
                if !held.isEmpty { log("photos: \(held.count) photo(s) not saved at stop: \(problem?.message ?? "")") }
                return
            }
            // A card that came back (and was checked, above) takes the photos waiting for it;
            // a failed write whose card has since gone waits for the card, not for Retry.
            if problem?.kind == .cardMissing, cardWasPresent { problem = nil }
            if problem?.kind == .writeFailed, !cardWasPresent, let photo = held.first { waitForCard(photo) }
            saveHeld()
            if problem != nil { spillHeld() }
            publishQueue()
            if inbox.count == 0 && decisions.count == 0 && !thread.isStopping {
                // Nothing more to save: what the photos took goes back to the kernel.
                if developedSinceTrim && held.isEmpty {
                    HeapTuning.giveBackFreePages()
                    developedSinceTrim = false
                }
                wake.wait(milliseconds: 500)
            }
            wake.drain()
        }
    }

    /// Extreme memory pressure: the photos not yet developed are cancelled, their frames
    /// given back at once; the photos developed (in memory, or spilled) are kept.
    private func cancelWaiting() {
        var numbers: [Int] = []
        while let capture = inbox.receive() {
            capture.forEachFrame(giveBack)
            var result = PhotoResult(ticket: capture.press.ticket, sequence: capture.frame.sequence,
                                     framesLate: capture.framesLate, exposureSeconds: capture.frame.exposure.exposure,
                                     iso: capture.iso)
            result.bracketOffsetThirds = capture.bracketOffsetThirds
            result.intervalRun = capture.press.intervalRun
            result.error = "photo \(capture.press.number) cancelled: memory low"
            record(result)
            numbers.append(capture.press.number)
        }
        guard !numbers.isEmpty else { return }
        report.cancelled += numbers.count
        status.postPhoto(report)
        log("photos: \(numbers.count) photo(s) cancelled before they were developed, memory low: "
            + numbers.map(String.init).joined(separator: ", "))
    }

    /// The photographer's answer to the problem on screen.
    private func decide(_ decision: SaveDecision) {
        guard problem != nil, let photo = held.first else { return }
        switch decision {
        case .retry:
            log("photo \(photo.pressNumber): saving again")
            problem = nil
        case .discard:
            card.remove(photo.writtenPaths)
            held.removeFirst()
            spill?.remove(photo)
            photo.result.error = "photo \(photo.pressNumber) discarded"
            record(photo.result)
            log("photo \(photo.pressNumber): discarded" + (photo.writtenPaths.isEmpty ? "" : " (its \(photo.writtenPaths.count) saved file(s) removed)"))
            problem = nil
        }
    }

    private func publishQueue() {
        let waiting = held.count + inbox.count
        status.postPendingSaves(waiting)
        if var shown = problem { shown.waiting = max(waiting, 1); problem = shown }
        if report.saveProblem != problem {
            report.saveProblem = problem
            status.postPhoto(report)
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

    /// Waits (polling) for `count` results of the press with `ticket` (a bracket's, one a
    /// frame), up to `seconds` or until `interrupted`; those that came, in the bracket's order,
    /// then the one standing for frames never taken, if any.
    public func waitForResults(ticket: Int, count: Int, seconds: Double, interrupted: () -> Bool = { false }) -> [PhotoResult] {
        let deadline = monotonicSeconds() + seconds
        func found() -> [PhotoResult] { results.withLock { $0.filter { $0.ticket == ticket } } }
        func accountedFor(_ results: [PhotoResult]) -> Int { results.reduce(0) { $0 + max(1, $1.untakenFrames) } }
        while monotonicSeconds() < deadline && !interrupted() && accountedFor(found()) < count { usleep(10_000) }
        let all = found()
        // Base, under, over…: the order they were taken in.
        let taken = all.filter { $0.untakenFrames == 0 }
            .sorted { BracketPlan.takenOrder($0.bracketOffsetThirds ?? 0) < BracketPlan.takenOrder($1.bracketOffsetThirds ?? 0) }
        return taken + all.filter { $0.untakenFrames > 0 }
    }

    /// `frames` of `press` will never be taken (`reason`): a program waiting for them is told
    /// at once rather than after its patience. (A press with no ticket is the camera's own:
    /// its screen and log already say.)
    func recordUntaken(_ press: ControlMailbox.CaptureRequest, frames: Int, reason: String) {
        guard press.ticket != nil, frames > 0 else { return }
        var result = PhotoResult(ticket: press.ticket, sequence: 0, framesLate: 0, exposureSeconds: 0, iso: 0)
        result.intervalRun = press.intervalRun
        result.untakenFrames = frames
        result.error = "photo \(press.number) \(reason)"
        record(result)
    }

    /// Keeps what became of a press for the program that asked (a later outcome, saved after
    /// a retry, replaces an earlier failure).
    private func record(_ result: PhotoResult) {
        guard result.ticket != nil else { return }
        results.withLock {
            // (A bracket's press has a result a frame.)
            $0.removeAll { $0.ticket == result.ticket && $0.bracketOffsetThirds == result.bracketOffsetThirds
                && $0.untakenFrames == result.untakenFrames }
            $0.append(result)
            if $0.count > PhotoPipeline.resultsKept { $0.removeFirst() }
        }
    }

    private func develop(_ capture: TakenPhoto) {
        var result = PhotoResult(ticket: capture.press.ticket, sequence: capture.frame.sequence,
                                 framesLate: capture.framesLate, exposureSeconds: capture.frame.exposure.exposure,
                                 iso: capture.iso)
        result.bracketOffsetThirds = capture.bracketOffsetThirds
        result.intervalRun = capture.press.intervalRun
        let developed: PhotoDeveloper.Developed
        let merging = capture.settings.format.merges && capture.alternateCount > 0
        if merging { status.postMerging(true) }
        defer { if merging { status.postMerging(false) } }
        do {
            developed = try developer.develop(capture)
        } catch {
            capture.forEachFrame(giveBack)
            var failed = result
            failed.error = "photo \(capture.press.number) cannot be made: \(error)"
            record(failed)
            fail(failed.error!)
            return
        }
        capture.forEachFrame(giveBack)
        held.append(HeldPhoto(pressNumber: capture.press.number, format: capture.settings.format, result: result,
                              files: developed.files.map { ($0.extension, .memory($0.bytes)) },
                              thumbnail: developed.thumbnail, thumbnailWidth: developed.thumbnailWidth,
                              thumbnailHeight: developed.thumbnailHeight, sequence: capture.frame.sequence,
                              framesLate: capture.framesLate, framesMerged: developed.framesMerged))
        spillHeld()
    }

    /// Held photos beyond the memory limit, or all of them while the card cannot take them,
    /// go to the camera's own storage.
    private func spillHeld() {
        guard let spill else { return }
        let moved = spill.spill(held, everything: problem != nil, log: log)
        if moved > 0 {
            log("photos: \(moved) file(s) of the \(held.count) photo(s) waiting moved to \(spill.folder)"
                + (problem != nil ? " until the card takes them" : " to keep memory within its budget"))
        }
    }

    /// Writes the held photos, oldest first, until one cannot be.
    private func saveHeld() {
        while problem == nil, let photo = held.first {
            guard cardSpace() != nil else {
                waitForCard(photo)
                return
            }
            do throws(SystemError) {
                let number: PhotoNumber
                if let given = photo.number { number = given } else { number = try numbering.next() }
                photo.number = number
                for index in photo.files.indices.dropFirst(photo.writtenPaths.count) {
                    photo.writtenPaths.append(try card.save(photo.bytes(ofFile: index), extension: photo.files[index].extension,
                                                            as: number))
                }
            } catch {
                // A card pulled mid-write fails with EIO: it is a missing card, not a bad one,
                // and the photos wait for it rather than for Retry.
                if !error.isOutOfSpace, cardSpace() == nil {
                    waitForCard(photo)
                    return
                }
                problem = if error.isOutOfSpace {
                    SaveProblem(kind: .storageFull, message: StorageAdvice.fullTitle,
                                suggestion: StorageAdvice.fullSuggestion(format: photo.format), waiting: held.count)
                } else if error.code == EROFS {
                    SaveProblem(kind: .writeFailed, message: StorageAdvice.readOnlyTitle,
                                suggestion: StorageAdvice.readOnlySuggestion, waiting: held.count)
                } else {
                    SaveProblem(kind: .writeFailed, message: "Photo not saved: \(error.reason)", waiting: held.count)
                }
                report.failed += 1
                report.error = problem!.message
                status.postPhoto(report)
                // The program that asked hears it now; the photo is still held.
                var failed = photo.result
                failed.error = "photo \(photo.pressNumber) not saved: \(problem!.message) (kept until Retry or Discard)"
                record(failed)
                log("photo \(photo.pressNumber) not saved: \(error); kept until Retry or Discard")
                return
            }
            held.removeFirst()
            spill?.remove(photo)
            saved(photo)
        }
    }

    /// The card is gone: the photos wait for it, said once, and are saved when it is back.
    private func waitForCard(_ photo: HeldPhoto) {
        problem = SaveProblem(kind: .cardMissing, message: "Storage card missing", waiting: held.count)
        log("photos: no card; \(held.count) photo(s) wait for it")
        var waiting = photo.result
        waiting.error = "photo \(photo.pressNumber) not saved yet: no storage card (it waits for one)"
        record(waiting)
    }

    private func saved(_ photo: HeldPhoto) {
        photo.result.number = photo.number
        photo.result.paths = photo.writtenPaths
        record(photo.result)
        if let run = photo.result.intervalRun {
            intervalRunPhotos.saved(run: run, jpeg: photo.writtenPaths.first { $0.hasSuffix(".JPG") })
        }
        report.saved += 1
        report.lastNumber = photo.number
        report.lastPaths = photo.writtenPaths
        report.lastSequence = photo.sequence
        report.lastFramesLate = photo.framesLate
        report.lastRawBytes = photo.files.indices.first { photo.files[$0].extension == "DNG" }.map { Int64(photo.byteCount(ofFile: $0)) }
        report.lastJPEGBytes = photo.files.indices.first { photo.files[$0].extension == "JPG" }.map { Int64(photo.byteCount(ofFile: $0)) }
        report.error = nil
        report.thumbnail = photo.thumbnail
        report.thumbnailWidth = photo.thumbnailWidth
        report.thumbnailHeight = photo.thumbnailHeight
        // (A photo saved means nothing stands in the way now: the report says so with it,
        // not a moment later.)
        report.saveProblem = problem
        status.postPhoto(report)
        // The space left, now (the main thread's check comes every second).
        status.postStorage(freeBytes: cardSpace())  // (just written to: not read-only)
        let late = photo.framesLate == 0 ? "" : ", \(photo.framesLate) frame(s) after the press"
        let merged = photo.framesMerged > 1 ? " (\(photo.framesMerged) frames merged)" : ""
        log("photo \(photo.pressNumber): frame \(photo.sequence)\(late)\(merged) → "
            + photo.writtenPaths.map { String($0.split(separator: "/").last ?? "") }.joined(separator: " + "))
    }

    private func fail(_ message: String) {
        report.failed += 1
        report.error = message
        status.postPhoto(report)
        log(message)
    }
}
