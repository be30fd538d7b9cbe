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

/// The movie side, on a thread of its own (never the realtime loop's): the record button's
/// presses come in, the frames the recording sink kept come in, each is rendered by an ISP
/// of its own at the movie's size, framed as the viewfinder is (the movie's shape, the
/// zoom), encoded and written to the card; the microphone's sound, stamped on the frames'
/// clock, goes beside it. Before a recording starts, and at each fragment
/// while it runs, the card's room is checked: a recording starts only with room for it and
/// stops itself, cleanly, before the card is full. A recording that fails keeps what was
/// written up to its last whole fragment. What happens goes to the status board.
public final class MovieRecorder: @unchecked Sendable {
    public typealias Log = @Sendable (String) -> Void
    public enum Command: Sendable { case start, stop, toggle }

    public let format: VideoFormat
    public let sink: RecordingSink
    private let wake = EventSignal()
    private let commands: HandOffQueue<Command>
    private let thread = WorkerThread(name: "reflex-movie")
    private let numbering: CardNumbering
    private let cardSpace: @Sendable () -> Int64?
    private let candidates: [VideoEncoderChoice]
    /// The board's microphone (an ALSA capture device), opened while a movie records.
    private let microphoneDevice: String?
    private let openSound: SoundCaptureOpener
    private var microphone: (any SoundCapture)?
    private var soundTimeline = AudioTimeline(sampleRate: Microphone.sampleRate)
    private var soundStarted = false
    /// The encoder that opened when the thread started (the best of the candidates).
    private var encoder: VideoEncoderChoice?
    private let budget: RecordingBudget
    private let status: StatusBoard
    private let log: Log
    /// The viewfinder's framing: zoom, and the crop's centre in the zoom-1 picture.
    private let zoom = Atomic<UInt64>(1.0.bitPattern)
    private let centreX = Atomic<UInt64>(0.5.bitPattern)
    private let centreY = Atomic<UInt64>(0.5.bitPattern)
    private var report = MovieReport()
    /// The last report posted, for a reader other than the loop (a benchmark, a test).
    private let posted = Mutex(MovieReport())
    private var recordings = 0
    /// The sink's drops before this recording (its own are those since).
    private var droppedBefore = 0
    private var movie: MovieInProgress?
    private var isp: PreviewISP?
    /// The movie's picture, made once: XRGB at its size.
    private let picture: UnsafeMutablePointer<UInt32>

    /// `memoryToMemory`: the board's V4L2 H.264 encoder node, if it has one; `microphone`:
    /// the ALSA capture device for the sound (nil: none), opened by `openSound` (the board's
    /// microphone; a test's sound elsewhere).
    public init(numbering: CardNumbering, format: VideoFormat, memoryToMemory: String? = nil, microphone: String? = nil,
                openSound: @escaping SoundCaptureOpener = Microphone.opener,
                cardSpace: @escaping @Sendable () -> Int64?, status: StatusBoard, log: @escaping Log) {
        self.numbering = numbering
        self.format = format
        candidates = VideoEncoderChoice.candidates(memoryToMemory: memoryToMemory)
        microphoneDevice = microphone
        self.openSound = openSound
        budget = RecordingBudget(bytesPerSecond: format.bytesPerSecond(audioBitRate: microphone == nil ? 0 : AudioEncoder.bitRate))
        self.cardSpace = cardSpace
        self.status = status
        self.log = log
        sink = RecordingSink(wakes: wake)
        commands = HandOffQueue(capacity: 8, wakes: wake)
        picture = .allocate(capacity: format.width * format.height)
        picture.initialize(repeating: 0xFF00_0000, count: format.width * format.height)
    }

    deinit { picture.deallocate() }

    @discardableResult
    public func start() -> Bool { thread.start { self.run() } }

    /// Stops the thread, finishing a recording under way.
    public func stop() {
        wake.signal()
        thread.stop()
    }

    /// The movie thread's latest report (the loop takes its own from the status board).
    public var latestReport: MovieReport { posted.withLock { $0 } }

    private func post() {
        posted.withLock { $0 = report }
        status.postMovie(report)
    }

    // MARK: the loop's side (never waits)

    /// The record button or key; false when commands are still waiting (refused, not lost).
    @discardableResult
    public func send(_ command: Command) -> Bool { commands.send(command) }

    /// The framing on screen: the movie is framed as the viewfinder is. (Three words, read
    /// apart: a frame between two writes mixes two framings a 60th of a second apart.)
    public func setFraming(_ framing: Framing) {
        zoom.store(framing.zoom.bitPattern, ordering: .relaxed)
        centreX.store(framing.centreX.bitPattern, ordering: .relaxed)
        centreY.store(framing.centreY.bitPattern, ordering: .relaxed)
    }

    // MARK: the thread

    private func run() {
        chooseEncoder()
        while true {
            while let command = commands.receive() { obey(command) }
            let framesWaiting = receiveFrames()
            let soundWaiting = receiveSound()
            if thread.isStopping {
                if movie != nil { stopRecording(message: nil) }
                return
            }
            if !framesWaiting && !soundWaiting { wake.wait(milliseconds: 250) }
        }
    }

    /// The first candidate that opens for the movie's format (said in the log).
    private func chooseEncoder() {
        let (choice, refused) = VideoEncoderChoice.firstThatOpens(candidates, format: format)
        for (candidate, error) in refused { log("movie: \(candidate.codecName) cannot be opened (\(error))") }
        encoder = choice
        report.encoder = choice?.codecName ?? ""
        log(choice.map { "movie: \(format) by \($0)" } ?? "movie: no H.264 encoder opens: no recording")
        post()
    }

    private func obey(_ command: Command) {
        switch command {
        case .start: if movie == nil { startRecording() }
        case .stop: if movie != nil { stopRecording(message: nil) }
        case .toggle: if movie == nil { startRecording() } else { stopRecording(message: nil) }
        }
    }

    private func startRecording() {
        report.message = nil
        guard let encoder else { return refuse("Cannot record: no H.264 encoder") }
        guard let free = cardSpace() else { return refuse("Cannot record: no storage card") }
        guard budget.canStart(freeBytes: free) else { return refuse("Cannot record: the card is full") }
        openMicrophone()
        do {
            let number = try numbering.next()
            movie = try MovieInProgress(number: number, card: numbering.card, format: format, encoder: encoder,
                                        soundChannels: microphone?.channels)
        } catch {
            closeMicrophone()
            return refuse("Cannot record: \(error)")
        }
        microphone?.start()
        soundTimeline = AudioTimeline(sampleRate: Microphone.sampleRate)
        soundStarted = false
        recordings += 1
        droppedBefore = sink.framesLost
        sink.arm(recording: recordings, framesPerSecond: format.framesPerSecond)
        report.recording = true
        report.recordingPath = movie!.path
        report.elapsedSeconds = 0
        report.framesRecorded = 0
        report.framesDropped = 0
        report.secondsLeft = budget.secondsLeft(freeBytes: free)
        post()
        log("movie \(movie!.number.fileStem): recording, \(Formatting.recordingTimeLeft(report.secondsLeft ?? 0)) left on the card, "
            + (microphone.map { "sound from \($0.summary)" } ?? "no sound"))
    }

    /// The board's microphone for this recording; none (said) where it cannot be opened.
    private func openMicrophone() {
        guard let microphoneDevice else { return }
        do {
            microphone = try openSound(microphoneDevice, wake)
        } catch {
            log("movie: no sound: the microphone cannot be opened (\(error))")
        }
    }

    private func closeMicrophone() {
        microphone?.stop()
        microphone = nil
    }

    /// The sound read since the last look, at most a pass of the microphone's chunks, placed
    /// on the frames' clock (from the first frame's capture time, once it has come). True when
    /// chunks are still waiting. (Bounded as `receiveFrames` is: on a board slower than the
    /// microphone each chunk given back is filled again at once, and an unbounded drain would
    /// never return to take a frame or hear the stop: the movie lost every frame and finished
    /// minutes after its stop.)
    @discardableResult
    private func receiveSound() -> Bool {
        guard let microphone else { return false }
        for _ in 0..<microphone.chunks.capacity {
            guard let chunk = microphone.chunks.receive() else { return false }
            defer { microphone.giveBack(chunk) }
            guard let movie else { continue }
            if !soundStarted, sink.startNanoseconds != 0 {
                soundTimeline.start(atNanoseconds: sink.startNanoseconds)
                soundStarted = true
            }
            let clocksKnownApart = soundTimeline.clocksApartSeconds != nil
            guard let place = soundTimeline.place(count: chunk.count, capturedAt: chunk.capturedAtNanoseconds) else {
                continue
            }
            if !clocksKnownApart, let apart = soundTimeline.clocksApartSeconds {
                log("movie: the microphone's clock is \(Int(apart.rounded())) s from the picture's: its sound starts with the movie")
            }
            do {
                try movie.addSound(chunk.samples + place.skip * microphone.channels, count: chunk.count - place.skip,
                                   index: place.index)
            } catch {
                fail(error)
                return false
            }
        }
        return microphone.chunks.count > 0
    }

    private func refuse(_ message: String) {
        report.message = message
        report.messagesSaid += 1
        post()
        log("movie: \(message)")
    }

    /// Encodes the frames the sink kept, at most a pass of its slots; a frame of a recording
    /// that has ended is given back. True when frames are still waiting. (Bounded: on a board
    /// slower than the stream each slot given back is filled again at once, and an unbounded
    /// drain would never return to hear the stop.)
    @discardableResult
    private func receiveFrames() -> Bool {
        for _ in 0..<RecordingSink.slotCount {
            guard let kept = sink.kept.receive() else { return false }
            defer { sink.giveBack(kept.copy) }
            guard let movie, kept.recording == recordings else { continue }
            do {
                guard render(kept.copy) else { continue }
                let fragmentEnded = try movie.encode(picture, slot: kept.slot)
                report.framesRecorded = movie.frames
                report.elapsedSeconds = movie.seconds
                if fragmentEnded { checkCard(movie) }
                if movie.frames % (format.framesPerSecond / 2) == 0 { publishProgress() }
            } catch {
                fail(error)
                return false
            }
        }
        return sink.kept.count > 0
    }

    /// The frame at the movie's size, framed as the viewfinder is; false for a kind of frame
    /// the ISP cannot render.
    private func render(_ copy: FrameCopy) -> Bool {
        guard let mode = copy.mode, let bytes = copy.frame.baseAddress else { return false }
        if isp == nil || isp!.maximumSourceWidth < mode.width || isp!.maximumSourceHeight < mode.height {
            isp = PreviewISP(maximumSourceWidth: mode.width, maximumSourceHeight: mode.height, maximumOutputWidth: format.width)
        }
        let frameZoom = max(copy.sensorZoom, 0.01)
        let digitalZoom = Double(bitPattern: zoom.load(ordering: .relaxed)) / frameZoom
        // The centre in the frame's fractions: the frame shows the middle 1/frameZoom.
        let x = 0.5 + (Double(bitPattern: centreX.load(ordering: .relaxed)) - 0.5) * frameZoom
        let y = 0.5 + (Double(bitPattern: centreY.load(ordering: .relaxed)) - 0.5) * frameZoom
        let crop = VideoFraming.crop(sourceWidth: mode.width, sourceHeight: mode.height, movieWidth: format.width,
                                     movieHeight: format.height, zoom: digitalZoom, centreX: x, centreY: y)
        let whole = PixelRect(x: 0, y: 0, width: format.width, height: format.height)
        if let layout = mode.rawLayout {
            isp!.setParameters(copy.parameters ?? ISPParameters(blackLevel: 0, whiteLevel: layout.format.maximumValue),
                               format: layout.format)
            isp!.renderBayer(bytes, layout: layout, crop: crop, into: picture, outputWidth: format.width,
                             outputHeight: format.height, outputStride: format.width, destination: whole)
        } else if !mode.isMotionJPEG {
            isp!.renderYUYV(bytes, width: mode.width, height: mode.height, bytesPerLine: mode.bytesPerLine, crop: crop,
                            into: picture, outputWidth: format.width, outputHeight: format.height,
                            outputStride: format.width, destination: whole)
        } else {
            return false
        }
        return true
    }

    /// At each fragment: the card's room (a recording stops itself before it is full).
    private func checkCard(_ movie: MovieInProgress) {
        guard let free = cardSpace() else {
            return stopRecording(message: "Recording stopped: the storage card was removed")
        }
        report.secondsLeft = budget.secondsLeft(freeBytes: free)
        switch budget.stopReason(freeBytes: free, fileBytes: movie.file.bytesWritten,
                                 onFAT: FATFile.isFAT(numbering.card.folder(for: movie.number))) {
        case .cardFull: stopRecording(message: "Recording stopped: the card is full")
        case .fileSizeLimit: stopRecording(message: "Recording stopped: a movie on this card cannot pass 4 GB")
        case nil: break
        }
    }

    private func publishProgress() {
        report.framesDropped = sink.framesLost - droppedBefore
        post()
    }

    /// Ends the recording: the frames already kept are encoded, the file finished and shown.
    private func stopRecording(message: String?) {
        guard let movie else { return }
        sink.disarm()
        // Frames captured before the stop are the movie's.
        let recording = recordings
        while let kept = sink.kept.receive() {
            defer { sink.giveBack(kept.copy) }
            guard kept.recording == recording, render(kept.copy) else { continue }
            do { try movie.encode(picture, slot: kept.slot) } catch { break }
        }
        // And the sound read until now (a failure there has finished the movie already).
        receiveSound()
        guard self.movie != nil else { return }
        let soundNote = microphone.map { "sound: \($0.overruns) overruns, \($0.periodsLost) periods lost" }
        closeMicrophone()
        self.movie = nil
        do {
            let path = try movie.finish()
            saved(movie, path: path, message: message)
            if let soundNote { log("movie \(movie.number.fileStem): \(soundNote)") }
        } catch {
            failed(movie, error: error)
        }
        // The encoder's threads and buffers are gone: their memory goes back to the kernel.
        HeapTuning.giveBackFreePages()
    }

    private func fail(_ error: Error) {
        guard let movie else { return }
        sink.disarm()
        closeMicrophone()
        self.movie = nil
        failed(movie, error: error)
    }

    /// What was written up to the last whole fragment is kept, and the failure said.
    private func failed(_ movie: MovieInProgress, error: Error) {
        let full = (error as? MovieError)?.isOutOfSpace == true || (error as? SystemError)?.isOutOfSpace == true
        let kept = movie.keepWhatWasWritten()
        let message = full ? "Recording stopped: the card is full" : "Recording stopped: \(error)"
        log("movie \(movie.number.fileStem): \(error); " + (kept.map { "kept up to its last whole second as \($0)" } ?? "nothing kept"))
        report.recording = false
        report.recordingPath = nil
        report.message = message
        report.messagesSaid += 1
        if let kept {
            report.saved += 1
            report.lastPath = kept
        }
        report.framesDropped = sink.framesLost - droppedBefore
        post()
    }

    private func saved(_ movie: MovieInProgress, path: String, message: String?) {
        report.recording = false
        report.recordingPath = nil
        report.saved += 1
        report.lastPath = path
        report.message = message
        if message != nil { report.messagesSaid += 1 }
        // The frames encoded at the stop count too: the report tells what the file holds.
        report.framesRecorded = movie.frames
        report.elapsedSeconds = movie.seconds
        report.framesDropped = sink.framesLost - droppedBefore
        report.secondsLeft = cardSpace().map { budget.secondsLeft(freeBytes: $0) }
        post()
        log("movie \(movie.number.fileStem): \(Formatting.fixed(movie.seconds, 1)) s, \(movie.frames) frames"
            + ", \(report.framesDropped) dropped, \(movie.encoder.keyframes) keyframes → \(path)"
            + (message.map { " (\($0))" } ?? ""))
    }
}
