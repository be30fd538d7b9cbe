import ReflexCore
import ReflexISP
import ReflexSystem
import ReflexVision
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Auto-zoom's analysis (docs/camera.md, Auto-zoom): on a thread of its own, below the realtime loop and above
/// the saving thread, it takes the newest frame of the analysis stream (`sink`, newest wins,
/// its losses counted), finds persons in it about ten times a second (`PersonDetector`, around
/// the subject and in the squares of a sweep of the frame, `DetectionPlan`, each person once,
/// `DetectionMerge`), follows them (`SubjectTracker`),
/// moves the subject's box by optical flow on the frames between (`BoxFlow`), and publishes a
/// `SubjectSnapshot` after every frame. The sensor thread never waits for it, nor the loop.
///
/// Without a model it runs no detector and says so once: the camera runs without auto-zoom.
public final class SubjectAnalysis: @unchecked Sendable {
    /// The analysis stream: a frame sink on the session, like the preview's.
    public let sink = PreviewSink(name: "analysis", countsLosses: true)
    /// Detections a second, at most (the flow fills the frames between).
    public static let detectionsPerSecond = 10.0
    /// Detections scoring less are not persons.
    public static let threshold = 0.5
    /// A subject followed by flow is trusted this much less than a detection (in box heights).
    static let flowErrorHeights = 0.2

    /// Below the sensor and the movie, whose frames must never wait for it (on a busy or slow
    /// machine its detections space out instead), above the saving thread.
    public static let priority = WorkerThread.Priority.yielding(nice: 5)
    private let thread = WorkerThread(name: "reflex-analysis", priority: SubjectAnalysis.priority)
    private let snapshots = TripleBuffer { SubjectSnapshot() }
    private let model: DetectorModel?
    private let clock: TimeSource
    private let log: @Sendable (String) -> Void
    private let available = Atomic<Bool>(false)
    // A tap from the loop: the point (two Float32s in one word), then the count moved on.
    private let tapPoint = Atomic<UInt64>(0)
    private let tapsSent = Atomic<Int>(0)
    /// The time of the frame being analysed, as bits (`idle`: none), for `newestSnapshot`.
    private let working = Atomic<UInt64>(SubjectAnalysis.idle)
    private static let idle = UInt64.max

    // The analysis thread's own.
    private var detector: PersonDetector?
    private var tracker = SubjectTracker()
    private var plan = DetectionPlan()
    private let flow = BoxFlow()
    private let picture = AnalysisPicture()
    private var detectionsRun = 0
    private var lastDetection = -Double.infinity
    private var framesAnalysed = 0
    private var tapsTaken = 0
    private var inferenceMilliseconds = 0.0
    private var sequence: UInt32 = 0
    // What the log's summary counts since the last one.
    private var summaryStart: Double?
    private var framesAtSummary = 0
    private var detectionsAtSummary = 0
    private var personsFoundSinceSummary = 0
    /// Seconds between the log's summaries while the analysis takes frames.
    static let summarySeconds = 10.0

    /// `model`: the person detector's model (nil: none was found).
    public init(model: DetectorModel?, clock: TimeSource = .monotonic, log: @escaping @Sendable (String) -> Void) {
        self.model = model
        self.clock = clock
        self.log = log
        sink.isPaused = true
    }

    /// The shipped kind of model, at `modelPath` (nil: none was found).
    public convenience init(modelPath: String?, clock: TimeSource = .monotonic, log: @escaping @Sendable (String) -> Void) {
        self.init(model: modelPath.map { DetectorModel(path: $0) }, clock: clock, log: log)
    }

    /// Whether a detector runs (false until it opened, and where there is no model).
    public var isAvailable: Bool { available.load(ordering: .acquiring) }

    /// Opens the detector and starts the thread; false if the thread could not start.
    public func start() -> Bool {
        thread.start { [self] in
            openDetector()
            run()
        }
    }

    public func stop() { thread.stop() }

    // MARK: the loop's side

    /// Whether anything needs the analysis (auto-zoom is on): while not, or while there is no
    /// detector, its stream takes no frame and the thread sleeps. Set by the loop each frame;
    /// never blocks.
    public func setWanted(_ wanted: Bool) {
        let taking = wanted && isAvailable
        guard sink.isPaused == taking else { return }
        sink.isPaused = !taking
    }

    /// The newest snapshot (the same as before when the analysis has nothing newer).
    public func newestSnapshot() -> SubjectSnapshot {
        _ = snapshots.takeNewest()
        var snapshot = snapshots.current
        let bits = working.load(ordering: .acquiring)
        snapshot.analysing = bits == SubjectAnalysis.idle ? nil : Double(bitPattern: bits)
        return snapshot
    }

    /// The photographer tapped `x`, `y` (fractions of the zoom-1 picture): the person there
    /// becomes the subject, or, on no one, the choice is cleared. Never blocks.
    public func tap(x: Double, y: Double) {
        let bits = UInt64(Float(x).bitPattern) << 32 | UInt64(Float(y).bitPattern)
        tapPoint.store(bits, ordering: .relaxed)
        tapsSent.wrappingAdd(1, ordering: .releasing)
    }

    // MARK: the analysis thread

    /// Opens the model; said once either way.
    func openDetector() {
        guard let model else {
            log("auto-zoom: no person detector model (\(PersonDetector.modelFileName)); the camera runs without auto-zoom")
            return
        }
        do {
            let opened = try PersonDetector(model: model)
            detector = opened
            available.store(true, ordering: .releasing)
            log("auto-zoom: person detector \(model.path) ready (input \(opened.networkInputSide) px)")
        } catch {
            log("auto-zoom: \(error); the camera runs without auto-zoom")
        }
    }

    private func run() {
        var descriptors = [pollfd(fd: sink.wakeDescriptor, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: thread.wakeDescriptor, events: Int16(POLLIN), revents: 0)]
        while !thread.isStopping {
            _ = pollWaiting(&descriptors, seconds: 0.2)
            sink.drainWake()
            thread.drainWake()
            guard let frame = sink.takeFrame() else {
                working.store(SubjectAnalysis.idle, ordering: .releasing)
                continue
            }
            let now = clock.now()
            // (Left set between frames that follow each other: the loop sees no gap.)
            working.store(now.bitPattern, ordering: .releasing)
            analyse(frame, at: now)
            // (Timed when the frame is done: on a machine whose detection takes longer than
            // `summarySeconds`, each detection gets its line, the progress a test waits on.)
            if let line = summary(at: clock.now()) { log(line) }
        }
    }

    /// Every `summarySeconds` from the first frame taken, after the frame that passes them:
    /// what the analysis did since the last line (how a slow machine's auto-zoom can be told
    /// from a blind one). Nil before any frame.
    func summary(at time: Double) -> String? {
        guard let start = summaryStart, time - start >= SubjectAnalysis.summarySeconds else { return nil }
        defer {
            summaryStart = time
            framesAtSummary = framesAnalysed
            detectionsAtSummary = detectionsRun
            personsFoundSinceSummary = 0
        }
        let subject = tracker.subject.map { track in
            let box = track.box(at: time)
            return "subject #\(track.id)" + (track.isConfirmed ? "" : " (tentative)") + " at "
                + "(\(Formatting.fixed(box.centreX, 2, width: 0)), \(Formatting.fixed(box.centreY, 2, width: 0))), "
                + Formatting.fixed(box.height, 2, width: 0) + " high"
        } ?? "no subject"
        return "analysis: \(framesAnalysed - framesAtSummary) frames in \(Int((time - start).rounded())) s, "
            + "\(detectionsRun - detectionsAtSummary) detections (the last in \(Int(inferenceMilliseconds.rounded())) ms, "
            + "one every \(Formatting.fixed(tracker.detectionInterval, 1, width: 0)) s) finding \(personsFoundSinceSummary) "
            + "persons, \(tracker.tracks.count) followed, \(subject)"
    }

    /// One frame at `time`: taps, a detection when one is due (else the flow), a snapshot.
    /// (Internal: the tests drive it frame by frame.)
    func analyse(_ frame: PreviewFrame, at time: Double) {
        if summaryStart == nil { summaryStart = time }
        picture.render(frame)
        framesAnalysed += 1
        sequence = frame.sequence
        takeTap(at: time)
        // (Due a little early rather than a frame late: at 30 fps three frames are 0.09999… s.)
        if let detector, time - lastDetection >= 1 / SubjectAnalysis.detectionsPerSecond - 0.005 {
            lastDetection = time
            let (found, regions) = detect(with: detector, at: time)
            personsFoundSinceSummary += found.count
            take(found, lookedAt: regions, at: time)
        } else if let subject = tracker.subject, picture.hasPrevious {
            followByFlow(subject, at: time)
        }
        publish(at: time)
    }

    /// Detections found in the frame at `time` in `regions` of the zoom-1 picture (nil: all of
    /// it), to the tracker. (Internal: a test feeds its own, then `publish`, to drive the loop's
    /// auto-zoom without a detector.)
    func take(_ detections: [PersonDetection], lookedAt regions: [FractionalBox]? = nil, at time: Double) {
        tracker.update(with: detections, lookedAt: regions, at: time)
    }

    private func takeTap(at time: Double) {
        let sent = tapsSent.load(ordering: .acquiring)
        guard sent != tapsTaken else { return }
        tapsTaken = sent
        let bits = tapPoint.load(ordering: .relaxed)
        tracker.tap(x: Double(Float(bitPattern: UInt32(bits >> 32))), y: Double(Float(bitPattern: UInt32(truncatingIfNeeded: bits))),
                    at: time)
    }

    /// Persons in the regions the plan gives (around the subject and newcomers, the sweep's
    /// squares), each once, with the regions looked at, in the zoom-1 picture's fractions.
    private func detect(with detector: PersonDetector, at time: Double) -> (found: [PersonDetection], regions: [FractionalBox]) {
        let extent = picture.extent
        tracker.aspect = picture.aspect * extent.height / max(extent.width, 1e-9)
        let subject = tracker.subject.map { $0.box(at: time).within(extent) }
        let regions = plan.regions(subject: subject, newcomers: tracker.newcomers(at: time).map { $0.within(extent) },
                                   aspect: picture.aspect)
        detectionsRun += 1
        let started = monotonicSeconds()
        var found: [RegionDetection] = []
        for region in regions {
            let x = Int(region.x * Double(picture.width)), y = Int(region.y * Double(picture.height))
            let w = max(Int(region.width * Double(picture.width)), 2), h = max(Int(region.height * Double(picture.height)), 2)
            do {
                let boxes = try picture.rgb.withUnsafeBufferPointer { pixels in
                    try detector.detect(rgb: pixels.baseAddress! + (y * picture.width + x) * 3, width: min(w, picture.width - x),
                                        height: min(h, picture.height - y), stride: picture.width * 3,
                                        threshold: SubjectAnalysis.threshold)
                }
                found += boxes.map { detection in
                    RegionDetection(detection: PersonDetection(box: detection.box.placed(in: region), confidence: detection.confidence),
                                    region: region)
                }
            } catch {
                log("auto-zoom: \(error)")
                return ([], [])
            }
        }
        inferenceMilliseconds = (monotonicSeconds() - started) * 1000
        let people = DetectionMerge.merge(found).map { person in
            PersonDetection(box: person.box.placed(in: extent), confidence: person.confidence)
        }
        return (people, regions.map { $0.placed(in: extent) })
    }

    private func followByFlow(_ subject: PersonTrack, at time: Double) {
        let box = subject.box(at: time).within(picture.extent)
        let moved = picture.previousGrey.withUnsafeBufferPointer { previous in
            picture.grey.withUnsafeBufferPointer { next in
                flow.follow(box, from: previous.baseAddress!, to: next.baseAddress!, width: picture.width, height: picture.height)
            }
        }
        guard let moved else { return }
        tracker.refine(track: subject.id, box: moved.placed(in: picture.extent), errorHeights: SubjectAnalysis.flowErrorHeights,
                       at: time)
    }

    func publish(at time: Double) {
        var snapshot = snapshots.writable
        snapshot.time = time
        snapshot.publishedAt = clock.now()
        snapshot.sequence = sequence
        snapshot.subject = tracker.subject
        snapshot.subjectTapped = tracker.subjectTapped
        snapshot.otherCount = 0
        for track in tracker.tracks where track.id != tracker.subjectID && track.isConfirmed
            && snapshot.otherCount < SubjectSnapshot.othersShown {
            snapshot.others[snapshot.otherCount] = track.box(at: time)
            snapshot.otherVelocities[snapshot.otherCount] = SIMD2(track.velocity.x, track.velocity.y)
            snapshot.otherCount += 1
        }
        snapshot.framesAnalysed = framesAnalysed
        snapshot.detections = detectionsRun
        snapshot.inferenceMilliseconds = inferenceMilliseconds
        snapshot.forwardMilliseconds = detector?.forwardMilliseconds ?? 0
        snapshot.detectionInterval = tracker.detectionInterval
        snapshots.writable = snapshot
        snapshots.publish()
    }
}
