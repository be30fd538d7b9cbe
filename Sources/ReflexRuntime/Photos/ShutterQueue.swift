import ReflexCore
import ReflexHardware
import ReflexISP
import ReflexSystem

/// The shutter on the sensor thread: presses wait here until the frame each one takes is
/// in the zero-lag ring (the one under way at the press; see `ShutterMoment`), then that
/// frame leaves the ring, without a copy, for the photo thread. Presses are served in order;
/// none is dropped: one that finds no spare frame memory waits for the photo thread to give
/// one back (and takes the oldest kept frame if its own has gone by then, said in the log).
/// Nothing here allocates once made.
///
/// Where the board takes stills by switching the sensor to its still mode (`stills =
/// switch`), presses wait here for `serveBySwitching` instead, each taking a frame of that
/// mode into the still pool's memory.
final class ShutterQueue {
    /// Presses waiting for their frames: a burst's three seconds and more.
    static let capacity = 40
    let ring: ZeroLagRing
    /// Full-resolution frame memory for the still mode, where the board switches to one.
    let stillFrames: FramePool?
    private let photos: PhotoPipeline
    private let log: SensorPipeline.Log
    /// Presses not yet served, oldest first (a fixed ring: no allocation).
    private var pending: [ControlMailbox.CaptureRequest?]
    private var first = 0
    private(set) var waiting = 0
    /// Photos handed to the photo thread.
    private(set) var taken = 0
    /// Presses cancelled under extreme memory pressure, in all.
    private(set) var cancelled = 0
    /// The memory pressure the ring was last fitted to.
    private(set) var pressure = MemoryPressureLevel.normal
    /// The time between the last two frames, for a frame's period.
    private var lastTimestamp: Int64?
    private var lastSequence: UInt32 = 0
    private var frameNanoseconds: Int64?
    /// When the last press served was pressed: one closer than `burstGap` after it is a burst's.
    private var lastPressAt: Double?
    static let burstGap = 0.15
    /// The bracket being shot: its press is the first waiting. The pipeline begins it and
    /// sends its exposures; `serve` takes its frames as they come.
    var bracket: BracketRun?
    /// The newest bracket's outcome, for the screen.
    private(set) var lastBracket: BracketOutcome?

    init(ring: ZeroLagRing, stillFrames: FramePool? = nil, photos: PhotoPipeline, log: @escaping SensorPipeline.Log) {
        self.ring = ring
        self.stillFrames = stillFrames
        self.photos = photos
        self.log = log
        pending = Array(repeating: nil, count: ShutterQueue.capacity)
    }

    /// A press from the mailbox (the mailbox holds at most as many as this queue).
    /// The streaming lens's calibration, on a board of several lenses (its photos say its
    /// f-number and focal length and carry its matrices).
    var lensCalibration: SensorCalibration?

    func add(_ request: ControlMailbox.CaptureRequest) {
        guard waiting < ShutterQueue.capacity else {
            log("shutter: press \(request.number) refused, \(waiting) photos still waiting for their frames")
            photos.recordUntaken(request, frames: request.bracket?.frames ?? 1,
                                 reason: "refused: \(waiting) photos still waiting for their frames")
            return
        }
        pending[(first + waiting) % ShutterQueue.capacity] = request
        waiting += 1
    }

    /// A new stream: its frames are timed afresh.
    func streamStarted() {
        // A bracket under way on the stream loses its frames still to come with the
        // stream's numbering (a still mode's bracket goes on: each still is a stream).
        if bracket != nil, stillFrames == nil, let press = pending[first] {
            bracket?.abandon()
            finishBracket(press)
        }
        ring.clear()
        lastTimestamp = nil
        frameNanoseconds = nil
    }

    /// The bracket the first waiting press asks for, not begun yet (on a stream: a still
    /// mode's bracket is shot by switching, one still an exposure).
    var bracketToBegin: BracketPlan? {
        guard bracket == nil, stillFrames == nil, waiting > 0 else { return nil }
        return pending[first]?.bracket
    }

    /// After each frame reached the ring: serves the presses whose frame is there.
    func serve(_ frame: SensorFrame, settings: CameraSettings, iso: (ExposureSetting) -> Int) {
        measurePeriod(frame)
        while waiting > 0, let press = pending[first] {
            if press.bracket != nil {
                guard serveBracket(frame, press: press, settings: settings, iso: iso) else { return }
                continue
            }
            let moment = ShutterMoment(pressNanoseconds: Int64((press.pressedAt * 1e9).rounded()),
                                       frameSeconds: frameSeconds(frame.mode), mark: frame.timestampMark)
            let sequence: UInt32, late: Int
            switch ring.choose(moment) {
            case .wait: return
            case .take(let chosen): (sequence, late) = (chosen, 0)
            case .late(let oldest): (sequence, late) = (oldest, lateFrames(oldest, moment: moment, frame: frame))
            }
            guard let copy = ring.take(sequence: sequence) else {
                // No spare yet: the next frame asks again; under extreme memory pressure the
                // presses waiting for memory are cancelled instead.
                if pressure.cancelsWaitingPhotos { cancelWaiting() }
                return
            }
            guard send(copy, for: press, settings: settings, iso: iso, framesLate: late, fromRing: true) else {
                ring.giveBack(copy)
                return
            }
        }
    }

    /// The bracket's frames, each as it comes, to the photo thread (held in the ring while
    /// no spare is free; a frame that left it is lost, and said). True once the bracket is
    /// over: its press is done.
    private func serveBracket(_ frame: SensorFrame, press: ControlMailbox.CaptureRequest, settings: CameraSettings,
                              iso: (ExposureSetting) -> Int) -> Bool {
        // (Begun by the pipeline before the next frame's exposure is sent.)
        guard var run = bracket else { return false }
        run.frameArrived(frame.sequence, exposure: frame.exposure)
        for index in 0..<run.frames {
            guard case .arrived(let sequence, _) = run.state(at: index) else { continue }
            // A full inbox: the frame stays in the ring and the next frame asks again.
            guard photos.inbox.count < photos.inbox.capacity else { break }
            guard let copy = ring.take(sequence: sequence) else {
                // Held in the ring until a spare comes back; the later frames wait behind it,
                // so the files are numbered in the bracket's order (but for a frame asked for
                // again, which comes after those that came meanwhile).
                if ring.keeps(sequence: sequence) { break }
                run.lost(at: index)
                log("shutter: press \(press.number): the bracket's frame \(sequence) left the ring before memory was free")
                continue
            }
            var photo = makePhoto(copy, for: press, settings: settings, iso: iso, framesLate: 0)
            photo.bracketOffsetThirds = run.offsetThirds(at: index)
            _ = photos.inbox.send(photo)
            run.taken(at: index)
            taken += 1
        }
        bracket = run
        guard run.isOver else { return false }
        finishBracket(press)
        return true
    }

    /// The bracket's press is done: its outcome for the screen and the log.
    private func finishBracket(_ press: ControlMailbox.CaptureRequest) {
        guard let run = bracket else { return }
        let outcome = BracketOutcome(press: press.number, frames: run.frames, taken: run.taken.count,
                                     notAsAsked: run.taken.notAsAsked)
        lastBracket = outcome
        photos.recordUntaken(press, frames: run.frames - run.taken.count, reason: "bracket: frame not taken")
        log("shutter: press \(press.number): bracket of \(run.frames) at ±\(DriveSettings.stepText(run.plan.stepThirds)) EV, "
            + "\(outcome.taken) taken" + (outcome.notAsAsked > 0 ? ", \(outcome.notAsAsked) not exposed as asked" : "")
            + (run.framesAskedAgain > 0 ? ", \(run.framesAskedAgain) asked again after the stream dropped them" : ""))
        bracket = nil
        lastPressAt = press.pressedAt
        pop()
    }

    /// The board's still mode: the sensor switches to it for each waiting press and back,
    /// the exposure, white balance and zoom of the preview's frame `lastSequence` kept (the
    /// zoom's `magnification` is the lens's). The number taken.
    /// A bracket's press takes one still an exposure, each switched to (a sensor that
    /// streams stills only by switching cannot change exposure on consecutive frames).
    func serveBySwitching(_ session: CameraSession, mode: CameraSession.Mode, calibration: SensorCalibration,
                          settings: CameraSettings, exposure: ExposureController?, lastSequence sequence: UInt32,
                          magnification: Double) throws(CameraError) -> Int {
        guard let width = calibration.stillWidth, let height = calibration.stillHeight else { return 0 }
        let exposureNow = exposure?.taken(forFrame: sequence) ?? ExposureSetting(exposure: 1.0 / 30, analogGain: 1)
        let parameters = exposure?.parameters(forFrame: sequence)
        let zoom = session.sensorZoom(forFrame: sequence) * magnification
        let model = session.exposureModel
        let begin = { (plan: BracketPlan) in
            BracketRun(plan: plan, base: exposureNow, times: model.limits.exposure, gains: model.limits.analogGain,
                       holdGain: settings.mode == .pro, delayFrames: 0)
        }
        return try serveBySwitching(settings: settings, iso: { model.iso(of: $0) }, framePeriod: frameSeconds(mode),
                                    beginBracket: begin) { copy, bracketExposure throws(CameraError) in
            try session.captureStill(width: width, height: height, exposure: bracketExposure ?? exposureNow,
                                     parameters: parameters, sensorZoom: zoom, skipping: calibration.stillSkipFrames, into: copy)
        }
    }

    /// The still mode's way: for each waiting press, `switchToStill` puts a frame of the
    /// still mode into memory from the still pool (the sensor is switched there and back) and
    /// says when it was in hand.
    /// Returns how many were served; presses that find no free memory wait for the next call.
    private func serveBySwitching(settings: CameraSettings, iso: (ExposureSetting) -> Int, framePeriod: Double,
                                  beginBracket: (BracketPlan) -> BracketRun,
                                  switchToStill: (FrameCopy, ExposureSetting?) throws(CameraError) -> Double) throws(CameraError) -> Int {
        var served = 0
        while waiting > 0, let press = pending[first], let copy = stillFrames?.borrow() {
            if let plan = press.bracket, bracket == nil { bracket = beginBracket(plan) }
            // The bracket's next exposure (one still each), nil for a single photo.
            let bracketIndex = press.bracket != nil ? bracket?.nextIndex : nil
            let inHand: Double
            do {
                inHand = try switchToStill(copy, bracketIndex.flatMap { bracket?.setting(at: $0) })
            } catch {
                stillFrames?.giveBack(copy)
                throw error
            }
            // The lag, in the preview's frames: what a photographer waited beyond the press.
            let lag = inHand - press.pressedAt
            let late = max(0, Int((lag / framePeriod).rounded(.up)))
            let size = copy.mode.map { "\($0.width)x\($0.height)" } ?? "?"
            func milliseconds(_ seconds: Double) -> Int { Int((seconds * 1000).rounded()) }
            log("shutter: press \(press.number): still mode \(size), its frame in hand \(milliseconds(lag)) ms after the press "
                + "(stamped \(milliseconds(Double(copy.timestampNanoseconds) / 1e9 - press.pressedAt)) ms); "
                + "the preview back \(milliseconds(monotonicSeconds() - press.pressedAt)) ms after it")
            if let bracketIndex, var run = bracket {
                guard photos.inbox.count < photos.inbox.capacity else {
                    stillFrames?.giveBack(copy)
                    break
                }
                var photo = makePhoto(copy, for: press, settings: settings, iso: iso, framesLate: late)
                photo.bracketOffsetThirds = run.offsetThirds(at: bracketIndex)
                _ = photos.inbox.send(photo)
                taken += 1
                // Each still is a stream of its own: numbered here, its exposure as the
                // sensor's controls read back.
                run.sent(afterFrame: UInt32(bracketIndex))
                run.frameArrived(UInt32(bracketIndex + 1), exposure: copy.exposure)
                run.taken(at: bracketIndex)
                if run.nextIndex == nil { run.sent(afterFrame: UInt32(bracketIndex + 1)) }
                bracket = run
                if run.isOver { finishBracket(press) }
                served += 1
                continue
            }
            guard send(copy, for: press, settings: settings, iso: iso, framesLate: late) else {
                stillFrames?.giveBack(copy)
                break
            }
            served += 1
        }
        return served
    }

    /// Fits the ring to the memory pressure when it changed: fewer frames kept and fewer
    /// photos on their way as it rises (their memory given back), every waiting press
    /// cancelled when it is extreme; the full ring again once it has eased.
    func adapt(to level: MemoryPressureLevel) {
        guard level != pressure else { return }
        let frames = level.ringFrames(of: ring.ringFrames), photos = level.photosOnTheirWay(of: ring.spares)
        let released = ring.limit(ringFrames: frames, photosOut: photos)
        log("memory: pressure \(level): the zero-lag ring keeps \(frames) of its \(ring.ringFrames) frames, "
            + "\(photos) of \(ring.spares) photos on their way at once"
            + (released > 0 ? ", \(released / 1_000_000) MB given back" : ""))
        pressure = level
        if level.cancelsWaitingPhotos { cancelWaiting() }
    }

    /// Cancels every press still waiting for its frame (extreme memory pressure).
    private func cancelWaiting() {
        guard waiting > 0 else { return }
        let count = waiting
        let presses = (0..<waiting).compactMap { pending[(first + $0) % ShutterQueue.capacity] }
        let numbers = presses.map(\.number)
        for (index, press) in presses.enumerated() {
            // A bracket under way has sent the frames it took; the rest are not taken.
            let frames = (index == 0 ? bracket.map { $0.frames - $0.taken.count } : nil) ?? press.bracket?.frames ?? 1
            photos.recordUntaken(press, frames: frames, reason: "cancelled: memory low")
        }
        for index in pending.indices { pending[index] = nil }
        (first, waiting) = (0, 0)
        ring.forgetWaitingPhotos()
        bracket = nil
        cancelled += count
        log("shutter: \(count) press(es) cancelled, memory low: "
            + (numbers.count > 1 ? "\(numbers.first!)…\(numbers.last!)" : "\(numbers.first ?? 0)"))
    }

    /// The press's photo to the photo thread; false if its inbox is full (the press waits).
    /// `fromRing`: the frame is the stream's, so Enhanced RAW's other frames are the ring's
    /// (a still mode's frame has none to merge with).
    private func send(_ copy: FrameCopy, for press: ControlMailbox.CaptureRequest, settings: CameraSettings,
                      iso: (ExposureSetting) -> Int, framesLate: Int, fromRing: Bool = false) -> Bool {
        // A press right after another is a burst's (or as quick): its photo is a plain one.
        let inBurst = lastPressAt.map { press.pressedAt - $0 < ShutterQueue.burstGap } ?? false
        var capture = makePhoto(copy, for: press, settings: settings, iso: iso, framesLate: framesLate)
        if capture.settings.format.merges && fromRing && !inBurst {
            ring.takeAlternates(around: copy.sequence, count: TakenPhoto.mergedFramesAtMost - 1) { capture.addAlternate($0) }
        }
        guard photos.inbox.send(capture) else {
            capture.forEachFrame { if $0 !== copy { ring.giveBack($0) } }
            return false
        }
        lastPressAt = press.pressedAt
        pop()
        taken += 1
        return true
    }

    /// The photo of `copy` for `press`: the press's format, the frame's own ISO, the place.
    private func makePhoto(_ copy: FrameCopy, for press: ControlMailbox.CaptureRequest, settings: CameraSettings,
                           iso: (ExposureSetting) -> Int, framesLate: Int) -> TakenPhoto {
        var photoSettings = settings
        if let format = press.format { photoSettings.format = format }
        return TakenPhoto(frame: copy, press: press, settings: photoSettings, iso: iso(copy.exposure),
                          framesLate: framesLate, pressedAt: PhotoClock.localTime(atMonotonic: press.pressedAt),
                          location: photos.describer.place(photoSettings, pressedAt: press.pressedAt),
                          calibration: lensCalibration)
    }

    /// The first waiting press is served.
    private func pop() {
        pending[first] = nil
        first = (first + 1) % ShutterQueue.capacity
        waiting -= 1
    }

    /// The frame period from the frames' own timestamps (a long exposure lengthens it).
    private func measurePeriod(_ frame: SensorFrame) {
        if let lastTimestamp, frame.sequence > lastSequence, frame.timestampNanoseconds > lastTimestamp {
            frameNanoseconds = (frame.timestampNanoseconds - lastTimestamp) / Int64(frame.sequence - lastSequence)
        }
        lastTimestamp = frame.timestampNanoseconds
        lastSequence = frame.sequence
    }

    func frameSeconds(_ mode: CameraSession.Mode) -> Double {
        if let frameNanoseconds { return Double(frameNanoseconds) / 1e9 }
        return 1 / (mode.framesPerSecond ?? 30)
    }

    /// How many frame periods after the press the oldest kept frame began.
    private func lateFrames(_ sequence: UInt32, moment: ShutterMoment, frame: SensorFrame) -> Int {
        let periods = Double(frame.sequence &- sequence) + 1
        let newestStart = frame.timestampNanoseconds - Int64(moment.frameSeconds * 1e9)
        let oldestStart = Double(newestStart) - (periods - 1) * moment.frameSeconds * 1e9
        return max(1, Int(((oldestStart - Double(moment.pressNanoseconds)) / (moment.frameSeconds * 1e9)).rounded(.up)))
    }
}
