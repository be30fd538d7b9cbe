import ArgumentParser
import CVision
import ReflexCore
import ReflexFormats
import ReflexHardware
import ReflexISP
import ReflexRuntime
import ReflexStorage
import ReflexSystem
import ReflexUI
import ReflexVision
#if canImport(Glibc)
import Glibc
#endif

/// `reflex bench track`: auto-zoom measured, in real time, on a clip with its truth (the
/// skier clip by default, `SkierClip`): the file sensor plays it, the analysis thread finds and
/// follows the subject, the realtime loop frames it on the headless display while a 1080p movie
/// records. Reports the analysis's pace and CPU (each inference beside OpenCV's own forward
/// time), how well the subject was framed against its truth, the smallest subject followed,
/// and the loop's frame times; then the detector's recall and precision on the frames labelled
/// by hand in Tests/Data/people, beside OpenCV's HOG people detector on the same frames.
struct TrackBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "track", abstract: "Benchmark auto-zoom on a clip with its truth (default: the skier clip).")

    @Option(help: "A clip to play (any video FFmpeg reads); give --truth with it.")
    var clip: String?
    @Option(help: "The clip's truth: a frame,x,y,w,h line a frame, the subject's box in the clip's pixels.")
    var truth: String?
    @Option(help: "How large auto-zoom frames the subject: tight, medium or wide.")
    var framing = "medium"
    @Option(help: "Only make the skier clip (skier.mp4, skier.csv) in this folder.")
    var makeClip: String?
    @Option(help: "The clip made: slope (the skier clip's), crowd (the slope past two people standing still), standing (a subject a slow detector can frame), pair (walking to and fro beside someone standing still, for a slow detector) or athletes (real people in athletic poses over a real scene).")
    var course = "slope"
    @Option(help: "The repository's Tests/Data (default: found from the working folder or the binary).")
    var testdata: String?
    @Option(help: "Write each displayed frame's framing beside the truth to this CSV (to see hunting).")
    var trace: String?

    func run() throws {
        guard let data = TestData.locate(testdata) else { throw BenchError("no Tests/Data found (give --testdata)") }
        let skierCourse = SkierClip.Course(rawValue: course)
        guard skierCourse != nil || course == "athletes" else { throw BenchError("--course is slope, crowd, standing, pair or athletes") }
        /// The chosen clip and its truth, made in `folder`.
        func makeChosenClip(in folder: String) throws {
            if let skierCourse {
                try SkierClip.make(source: data + "/people/vtest-0100-6s.mp4", into: folder, course: skierCourse)
            } else {
                try AthleteClip.make(testData: data, into: folder)
            }
        }
        if let folder = makeClip {
            try AtomicFile.createFolder(folder)
            let started = monotonicSeconds()
            try makeChosenClip(in: folder)
            print("Made \(folder)/\(SkierClip.fileName) and \(SkierClip.truthName) in \(Formatting.fixed(monotonicSeconds() - started, 1, width: 0)) s")
            return
        }
        guard let size = AutoFraming.Size(rawValue: framing) else { throw BenchError("--framing is tight, medium or wide") }
        guard let model = PersonDetector.locateModel(environment: getenv("REFLEX_MODEL").map { String(cString: $0) },
                                                     executablePath: executablePath()) else {
            throw BenchError("no person detector model (Models/fetch, or set REFLEX_MODEL)")
        }
        let work = "/tmp/reflex-bench-track-\(getpid())"
        try AtomicFile.createFolder(work + "/state")
        defer { _ = try? ChildProcess.runUntilLine(["/bin/rm", "-rf", work], matching: nil, timeout: 30) }
        let (clipPath, truthPath): (String, String)
        if let clip {
            guard let truth else { throw BenchError("--clip needs --truth") }
            (clipPath, truthPath) = (clip, truth)
        } else {
            try makeChosenClip(in: work)
            (clipPath, truthPath) = (work + "/" + SkierClip.fileName, work + "/" + SkierClip.truthName)
        }
        let truths = try SkierClip.readTruth(truthPath)
        let footage = try VideoFootage(path: clipPath)
        try follow(clip: clipPath, truths: truths, width: footage.width, height: footage.height, rate: footage.framesPerSecond,
                   model: model, size: size, work: work, trace: trace)
        try detectionQuality(data: data, model: model)
    }

    /// The camera on the clip in real time, the framing scored frame by frame.
    private func follow(clip: String, truths: [Int: PixelRect], width: Int, height: Int, rate: Double, model: String,
                        size: AutoFraming.Size, work: String, trace: String?) throws {
        let fontFolder = try BenchFonts.folder()
        var settings = CameraSettings()
        settings.autoZoom = true
        settings.autoZoomFraming = size
        let lines = LogLines()
        let sensor = SensorPipeline(settings: settings, calibration: .simulated,
                                    choice: CameraChoice(source: .videoFile(path: clip)), log: { lines.add($0) })
        let analysis = SubjectAnalysis(modelPath: model, log: { lines.add($0) })
        sensor.mailbox.attach(analysis.sink)
        let movies = MovieRecorder(numbering: CardNumbering(card: PhotoCard(root: work), counter: PhotoCounter(folder: work + "/state")),
                                   format: .fullHD, memoryToMemory: VideoEncoderProbe.memoryToMemoryH264Encoder(),
                                   cardSpace: { StorageProbe.freeBytes(at: work, requireMountPoint: false) },
                                   status: sensor.status, log: { lines.add($0) })
        sensor.mailbox.attach(movies.sink)
        guard analysis.start() else { throw BenchError("cannot start the analysis thread") }
        movies.start()
        let loop = FrameLoop(display: try HeadlessDisplay(folder: nil), preview: sensor.preview, status: sensor.status,
                             mailbox: sensor.mailbox, fonts: try FontLibrary(folder: fontFolder),
                             model: CameraModel(settings: settings, limits: .unlimited), fNumber: 2.8, movies: movies,
                             analysis: analysis)
        guard loop.start() else { throw BenchError("cannot start the realtime loop") }
        // The clip from its first picture: the stream starts after the threads are ready.
        guard sensor.start() else { throw BenchError("cannot start the sensor thread") }
        defer { loop.stop(); sensor.stop(); movies.stop(); analysis.stop() }
        let waitUntil = monotonicSeconds() + 10
        while analysis.newestSnapshot().framesAnalysed == 0 && monotonicSeconds() < waitUntil { usleep(10_000) }
        guard let before = loop.currentStatistics(timeout: 5) else { throw BenchError("the loop does not answer") }
        movies.send(.start)
        let clipSeconds = Double(truths.count) / rate
        print("Auto-zoom (\(size.rawValue)) on \(clip): \(width)x\(height) at \(Formatting.fixed(rate, 0, width: 0)) fps, "
              + "\(Formatting.fixed(clipSeconds, 1, width: 0)) s, played by the file sensor in real time, the loop on the "
              + "headless display at 60 Hz, a 1080p movie recording")
        // The framing the loop shows, worked out here from the same snapshots by the same rule,
        // 60 times a second, each against the truth of the picture on screen.
        var control = AutoZoomControl()
        var zoom = ZoomRamp(range: InterfaceController.zoomRange)
        var score = FramingScore(size: size, firstScored: Int(rate.rounded()), zoomRange: InterfaceController.zoomRange)
        var smallest = Double.infinity
        // The frames whose subject was the clip's own (its box over the truth), of those with a subject.
        var followedTruth = 0, withSubject = 0
        var inferences: [(total: Double, forward: Double)] = []
        var lastDetections = 0
        let cpuBefore = ThreadTimes.seconds(named: "reflex-analysis"), started = monotonicSeconds()
        var detectionsAtStart: Int?
        var traceLines = ["seconds,picture,zoom,centre_x,centre_y,truth_x,truth_y,truth_height,seen_x,seen_y,seen_height,detections,reversals"]
        while true {
            usleep(16_667)
            let now = monotonicSeconds()
            let snapshot = analysis.newestSnapshot()
            guard snapshot.sequence > 0 else { continue }
            if detectionsAtStart == nil { detectionsAtStart = snapshot.detections }
            let picture = Int(snapshot.sequence) - 1 + Int(((now - snapshot.time) * rate).rounded(.down))
            if picture >= truths.count { break }
            if snapshot.detections != lastDetections {
                lastDetections = snapshot.detections
                inferences.append((snapshot.inferenceMilliseconds, snapshot.forwardMilliseconds))
            }
            let framed = control.framing(enabled: true, size: size, zoom: &zoom, pinching: false,
                                         subject: snapshot.subject(at: now), at: now)
            guard let box = truths[picture] else { continue }
            let truth = FractionalBox(x: Double(box.x) / Double(width), y: Double(box.y) / Double(height),
                                 width: Double(box.width) / Double(width), height: Double(box.height) / Double(height))
            score.add(FramingScore.Sample(picture: picture, time: now, framing: framed, subjectID: snapshot.subject?.id), truth: truth)
            if trace != nil {
                let seen = snapshot.subject(at: now)?.box
                traceLines.append([Formatting.fixed(now - started, 3, width: 0), "\(picture)", Formatting.fixed(framed.zoom, 3, width: 0),
                                   Formatting.fixed(framed.centreX, 3, width: 0), Formatting.fixed(framed.centreY, 3, width: 0),
                                   Formatting.fixed(truth.centreX, 3, width: 0), Formatting.fixed(truth.centreY, 3, width: 0),
                                   Formatting.fixed(truth.height, 3, width: 0),
                                   seen.map { Formatting.fixed($0.centreX, 3, width: 0) } ?? "",
                                   seen.map { Formatting.fixed($0.centreY, 3, width: 0) } ?? "",
                                   seen.map { Formatting.fixed($0.height, 3, width: 0) } ?? "",
                                   "\(snapshot.detections)", "\(score.reversals.reversals)"].joined(separator: ","))
            }
            if let subject = snapshot.subject(at: now) {
                withSubject += 1
                if subject.box.overlap(truth) >= 0.3 { followedTruth += 1 }
                if subject.box.overlap(truth) >= 0.5 { smallest = min(smallest, truth.height) }
            }
        }
        let wall = monotonicSeconds() - started
        if let trace { try AtomicFile.write(Array((traceLines.joined(separator: "\n") + "\n").utf8), to: trace) }
        let cpu = ThreadTimes.seconds(named: "reflex-analysis") - cpuBefore
        movies.send(.stop)
        guard let after = loop.currentStatistics(timeout: 5) else { throw BenchError("the loop does not answer") }
        let snapshot = analysis.newestSnapshot()
        let detections = snapshot.detections - (detectionsAtStart ?? 0)
        func mean(_ values: [Double]) -> Double { values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count) }
        let total = mean(inferences.map(\.total)), forward = mean(inferences.map(\.forward))
        print("  analysis: \(Formatting.fixed(Double(detections) / wall, 1, width: 0)) detections a second "
              + "(target ≥ 10), \(Formatting.fixed(100 * cpu / wall, 0, width: 0)) % of one core (target ≤ 50 %), "
              + "\(snapshot.framesAnalysed) frames analysed, \(analysis.sink.framesLost) lost by its stream; "
              + "an inference \(Formatting.fixed(total, 1, width: 0)) ms, of which OpenCV's forward pass "
              + "\(Formatting.fixed(forward, 1, width: 0)) ms (our part: picture to 300x300 RGB, the boxes back)")
        print("  framing: \(score.summary)")
        print("  the subject was the clip's own in \(followedTruth) of the \(withSubject) frames with a subject "
              + "(someone else in \(withSubject - followedTruth))")
        print("  the smallest subject followed: \(smallest.isFinite ? Formatting.fixed(smallest * 100, 1, width: 0) + " % of the picture's height" : "none")")
        print("  the loop while tracking and recording: \(after.ring.summary(since: before.ring).description) "
              + "(target: p99 ≤ 8 ms, 0 missed vblanks, 0 allocations)")
        for line in lines.matching(["auto-zoom"]) { print("    log: \(line)") }
    }

    /// Recall and precision (a detection is a person when it overlaps a labelled one by half)
    /// on the frames labelled by hand, for the detector and for OpenCV's HOG.
    private func detectionQuality(data: String, model: String) throws {
        let folder = data + "/people"
        let names = namesInFolder(folder).filter { $0.hasSuffix(".csv") }.map { String($0.dropLast(4)) }.sorted()
        let detector = try PersonDetector(modelPath: model)
        var ours = (found: 0, labelled: 0, correct: 0, given: 0), hog = ours
        var hogMilliseconds = 0.0, ourMilliseconds = 0.0
        for name in names {
            guard let jpeg = try AtomicFile.read(folder + "/" + name + ".jpg", limit: 1 << 24),
                  let picture = try? TurboJPEGDecoder(jpeg) else { continue }
            let labels = try PeopleLabels.read(folder + "/" + name + ".csv", width: picture.width, height: picture.height)
            let started = monotonicSeconds()
            let found = try picture.rgb.withUnsafeBufferPointer { pixels in
                try detector.detect(rgb: pixels.baseAddress!, width: picture.width, height: picture.height, stride: picture.width * 3)
            }.map(\.box)
            ourMilliseconds += (monotonicSeconds() - started) * 1000
            let hogStarted = monotonicSeconds()
            var boxes = [reflex_box](repeating: reflex_box(), count: 64)
            var message = [CChar](repeating: 0, count: 256)
            let count = picture.rgb.withUnsafeBufferPointer { pixels in
                reflex_hog_detect(pixels.baseAddress!, Int32(picture.width), Int32(picture.height), Int32(picture.width * 3),
                                  &boxes, Int32(boxes.count), &message, message.count)
            }
            hogMilliseconds += (monotonicSeconds() - hogStarted) * 1000
            let hogFound = boxes.prefix(Int(max(count, 0))).map {
                FractionalBox(x: Double($0.x), y: Double($0.y), width: Double($0.width), height: Double($0.height))
            }
            for (tally, detections) in [(0, found), (1, hogFound)] {
                let recalled = labels.filter { label in detections.contains { $0.overlap(label) >= 0.5 } }.count
                let right = detections.filter { detection in labels.contains { $0.overlap(detection) >= 0.5 } }.count
                if tally == 0 {
                    ours = (ours.found + recalled, ours.labelled + labels.count, ours.correct + right, ours.given + detections.count)
                } else {
                    hog = (hog.found + recalled, hog.labelled + labels.count, hog.correct + right, hog.given + detections.count)
                }
            }
        }
        func share(_ a: Int, _ b: Int) -> String { b > 0 ? Formatting.fixed(100 * Double(a) / Double(b), 0, width: 0) + " %" : "-" }
        print("Detection on \(names.count) frame(s) of vtest.avi labelled by hand (\(ours.labelled) persons, overlap ≥ 0.5): "
              + "the detector recall \(share(ours.found, ours.labelled)), precision \(share(ours.correct, ours.given)), "
              + "\(Formatting.fixed(ourMilliseconds / Double(max(names.count, 1)), 0, width: 0)) ms a frame; "
              + "OpenCV's HOG people detector recall \(share(hog.found, hog.labelled)), precision \(share(hog.correct, hog.given)), "
              + "\(Formatting.fixed(hogMilliseconds / Double(max(names.count, 1)), 0, width: 0)) ms a frame")
    }
}
