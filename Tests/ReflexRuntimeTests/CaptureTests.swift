import ReflexTestSupport
import CTurboJPEG
import Foundation
import ReflexCore
import ReflexHardware
import ReflexISP
import ReflexStorage
import ReflexSystem
import Synchronization
import Testing
@testable import ReflexRuntime

/// Keeps what the sensor thread delivered: each frame's time, its bytes and its ISP
/// parameters, to tell which frame was under way at a press and what it held.
final class FrameRecorder: FrameSink, @unchecked Sendable {
    struct Recorded {
        let sequence: UInt32
        let timestamp: Int64
        let bytes: [UInt8]
        let parameters: ISPParameters?
        let exposure: ExposureSetting
    }
    let name = "recorder"
    let framesLost = 0
    private let frames = Mutex<[Recorded]>([])
    private let delivered = Atomic<Int>(0)
    /// Every frame delivered so far (the recorder keeps only the last 40).
    var total: Int { delivered.load(ordering: .acquiring) }
    /// Recording stops a few frames after this moment, so the frames around a press are kept
    /// however long the photo takes to save (a slow, busy host).
    private let stopAfter = Mutex<Int64?>(nil)

    func deliver(_ frame: SensorFrame) {
        defer { delivered.add(1, ordering: .releasing) }
        if let stop = stopAfter.withLock({ $0 }), frames.withLock({ $0.filter { $0.timestamp >= stop }.count }) >= 5 { return }
        let copy = Recorded(sequence: frame.sequence, timestamp: frame.timestampNanoseconds, bytes: Array(frame.bytes),
                            parameters: frame.parameters, exposure: frame.exposure)
        frames.withLock { $0.append(copy); if $0.count > 40 { $0.removeFirst() } }
    }

    /// Keeps the frames up to a few after `nanoseconds`, and no later ones.
    func keepAround(_ nanoseconds: Int64) { stopAfter.withLock { $0 = nanoseconds } }

    var recorded: [Recorded] { frames.withLock { $0 } }
    var count: Int { frames.withLock { $0.count } }
}

/// The shutter end to end on the simulated sensor: a press through the mailbox, the frame
/// under way at it taken from the zero-lag ring, developed and written to a card folder.
@Suite("Capture", .serialized)
struct CaptureTests {
    final class Rig {
        let card = TemporaryFolder()
        let state = TemporaryFolder()
        let pipeline: SensorPipeline
        let photos: PhotoPipeline
        let recorder = FrameRecorder()
        let log = TestLog()
        /// The simulated sensor's frames, one a `step` (nil: a timer's, in real time).
        let stepper: SensorStepper?

        /// `stepped`: the binned simulated sensor makes a frame when the test steps it, and
        /// the sensor thread reckons on the stepper's clock (`choice` is then not used).
        init(format: CaptureFormat, calibration: SensorCalibration = .simulated, choice: CameraChoice = FrameSinkTests.binned,
             stillFrames: FramePool? = nil, ringFrames: Int = 6, spares: Int = 2, photoPriority: WorkerThread.Priority = .background,
             stepped: Bool = false, settings given: CameraSettings = CameraSettings()) {
            var settings = given
            settings.format = format
            stepper = stepped ? SensorStepper() : nil
            if let stepper {
                let choice = CameraChoice(source: .simulated(.absoluteExposure, pace: .stepped(stepper)),
                                          width: SimulatedCamera.binnedWidth, height: SimulatedCamera.binnedHeight)
                pipeline = SensorPipeline(settings: settings, calibration: calibration, choice: choice,
                                          clock: .manual(stepper.clock), log: log.write)
            } else {
                pipeline = SensorPipeline(settings: settings, calibration: calibration, choice: choice, log: log.write)
            }
            let ring = ZeroLagRing(ringFrames: ringFrames, spares: spares, frameBytes: 0)
            photos = PhotoPipeline(numbering: CardNumbering(card: PhotoCard(root: card.path), counter: PhotoCounter(folder: state.path)),
                                   describer: PhotoDescriber(calibration: calibration, software: "Reflex test"),
                                   status: pipeline.status, priority: photoPriority,
                                   giveBack: { ring.giveBack($0); stillFrames?.giveBack($0) },
                                   log: log.write)
            pipeline.takePhotos(ring: ring, stillFrames: stillFrames, photos: photos)
            pipeline.mailbox.attach(recorder)
        }

        func start() {
            #expect(photos.start())
            #expect(pipeline.start())
        }

        func stop() {
            pipeline.stop()
            photos.stop()
        }

        /// A stepped sensor's next frames, one at a time, each waited for until the sensor
        /// thread has delivered it to the sinks (false if one never came).
        @discardableResult
        func step(frames count: Int = 1) -> Bool {
            guard let stepper else { return false }
            for _ in 0..<count {
                let before = recorder.total
                stepper.step()
                guard waitUntil({ recorder.total > before }) else { return false }
            }
            return true
        }

        /// Frame by frame until `count` photos are saved (false if they never were). A photo
        /// held in the ring for a spare leaves with the first frame after a save gave one back,
        /// as on a camera whose frames keep coming: so the frames go on while the photo thread,
        /// slow on a busy machine, saves, however many that takes (a held frame stays kept;
        /// `recordFrames(after:)` keeps the recorder's frames around the press).
        func step(untilSaved count: Int) -> Bool {
            waitUntil { photoReport().saved >= count || (step() && photoReport().saved >= count) }
        }

        /// The recorder keeps the frames from now up to `frames` and a few more after the
        /// stepper's clock, however many frames are stepped after them.
        func recordFrames(after frames: Int) {
            guard let stepper else { return }
            recorder.keepAround(Int64(((stepper.clock.now + stepper.frameSeconds * Double(frames)) * 1e9).rounded()))
        }

        /// A press half a frame before the stepper's clock: during the frame delivered last,
        /// which is the one it takes.
        var pressDuringTheLastFrame: Double { stepper!.clock.now - stepper!.frameSeconds / 2 }

        /// The status as the loop would read it (each update brings only what is new).
        private var status = CameraStatus()

        func photoReport() -> PhotoReport {
            pipeline.status.update(&status)
            return status.photo
        }

        func sensorReport() -> SensorReport {
            pipeline.status.update(&status)
            return status.sensor
        }
    }

    @Test(.tags(.externalTool)) func aPressSavesTheFrameUnderWayAsDNGAndJPEG() throws {
        let rig = Rig(format: .rawPlusJPEG, stepped: true)
        rig.start()
        defer { rig.stop() }
        #expect(rig.step(frames: 8), "the sensor streams")
        // Pressed during the frame delivered last (its timestamp marks its end): that frame is
        // the photo, served when the next one comes.
        let underWay = try #require(rig.recorder.recorded.last)
        let press = rig.pressDuringTheLastFrame
        #expect(rig.pipeline.mailbox.requestCapture(at: press))
        #expect(rig.step())
        #expect(waitUntil { rig.photoReport().saved == 1 }, "saved: \(rig.log.text)")
        let report = rig.photoReport(), attempts = 1
        #expect(report.lastSequence == underWay.sequence, "the frame under way at the press \(press); recorded \(rig.recorder.recorded.map { "\($0.sequence)@\($0.timestamp)" }); log: \(rig.log.text.suffix(1500))")
        #expect(report.lastFramesLate == 0)
        let dng = rig.card.path + "/DCIM/100REFLX/RFLX000\(attempts).DNG"
        let jpeg = rig.card.path + "/DCIM/100REFLX/RFLX000\(attempts).JPG"
        #expect(report.lastPaths == [dng, jpeg])
        // What LibRaw decodes from the DNG is that frame's raw data, sample for sample.
        let samples = try #require(CaptureTests.unprocessedRaw(dng), "unprocessed_raw read the DNG")
        let expected = underWay.bytes.withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
        #expect(samples.width == SimulatedCamera.binnedWidth && samples.height == SimulatedCamera.binnedHeight)
        // (Counted, not compared whole: a failed comparison of 230 000 samples would be diffed.)
        let differing = zip(samples.values, expected).filter { $0 != $1 }.count
        #expect(samples.values.count == expected.count && differing == 0,
                "the DNG holds the frame under way at the press: \(differing) samples differ")
        #expect(report.thumbnailWidth > 0 && report.thumbnail.count == report.thumbnailWidth * report.thumbnailHeight * 3)
        // The counter was written before the files.
        #expect(PhotoCounter(folder: rig.state.path).load() == PhotoNumber(folder: 100, file: attempts))
    }

    /// A board whose preview streams a binned mode and whose stills come from a switch to
    /// the full-resolution mode (`stills = switch`): each press gets a full-resolution frame,
    /// the lag is logged, and the preview streams its own mode again. Two quick presses with
    /// one frame of still memory: the second waits for the first to be saved, none is lost.
    @Test(.tags(.externalTool)) func aStillModeSwitchTakesFullResolutionAndComesBack() throws {
        var calibration = SensorCalibration.simulated
        (calibration.previewWidth, calibration.previewHeight) = (SimulatedCamera.binnedWidth, SimulatedCamera.binnedHeight)
        (calibration.stillWidth, calibration.stillHeight) = (SimulatedCamera.width, SimulatedCamera.height)
        calibration.stillsBy = .modeSwitch
        #expect(calibration.stillSource == .modeSwitch && calibration.streamWidth == SimulatedCamera.binnedWidth)
        let pool = FramePool(count: 1, frameBytes: SimulatedCamera.width * SimulatedCamera.height * 2)
        // The sensor makes a frame whenever the last was taken (the still mode's switch waits
        // for frames itself): the wait for the still frame counts frames on any host.
        let rig = Rig(format: .raw, calibration: calibration, stillFrames: pool, stepped: true)
        let stepper = try #require(rig.stepper)
        rig.start()
        stepper.startFollowing()
        defer { stepper.stopFollowing(); rig.stop() }
        #expect(waitUntil { rig.recorder.count >= 5 }, "the preview streams")
        #expect(rig.pipeline.status.latestSensorReport().width == SimulatedCamera.binnedWidth)
        #expect(rig.pipeline.mailbox.requestCapture(at: stepper.clock.now))
        #expect(rig.pipeline.mailbox.requestCapture(at: stepper.clock.now))
        #expect(waitUntil { rig.photoReport().saved == 2 }, "both saved: \(rig.log.text.suffix(2000))")
        for number in 1...2 {
            let dng = rig.card.path + "/DCIM/100REFLX/RFLX000\(number).DNG"
            let raw = try #require(CaptureTests.unprocessedRaw(dng), "LibRaw reads \(dng)")
            #expect(raw.width == SimulatedCamera.width && raw.height == SimulatedCamera.height, "the full-resolution mode")
        }
        let switches = rig.log.text.components(separatedBy: "\n").filter { $0.contains("still mode 1280x720, its frame in hand") }
        #expect(switches.count == 2, "each switch and its lag in the log: \(rig.log.text.suffix(2000))")
        #expect(switches.allSatisfy { $0.contains("the preview back") })
        // And the preview streams its own mode again.
        #expect(waitUntil { rig.pipeline.status.latestSensorReport().streamCount >= 3 },
                "the preview, then a stream again after each switch")
        let streams = rig.pipeline.status.latestSensorReport().streamCount
        #expect(waitUntil { (rig.recorder.recorded.last?.sequence ?? 0) > 5 }, "frames of the preview's stream again")
        let report = rig.pipeline.status.latestSensorReport()
        #expect(report.width == SimulatedCamera.binnedWidth && report.streamCount == streams)
        #expect(pool.borrow() != nil, "the still memory came back")
    }

    /// The photo looks like the viewfinder: the JPEG, brought to the preview's half size,
    /// against the preview ISP's rendering of the same raw frame with the same parameters.
    @Test func thePhotoLooksLikeTheViewfinder() throws {
        let rig = Rig(format: .jpeg, stepped: true)
        rig.start()
        defer { rig.stop() }
        // Auto exposure and white balance settle first.
        #expect(rig.step(frames: 30))
        #expect(rig.pipeline.mailbox.requestCapture(at: rig.pressDuringTheLastFrame))
        #expect(rig.step())
        #expect(waitUntil { rig.photoReport().saved == 1 }, "saved: \(rig.log.text)")
        let report = rig.photoReport()
        let frame = try #require(rig.recorder.recorded.first { $0.sequence == report.lastSequence })
        let parameters = try #require(frame.parameters)
        let jpegPath = try #require(report.lastPaths.first, "saved: \(rig.log.text)")
        let jpegBytes = try #require(FileManager.default.contents(atPath: jpegPath))
        let photo = try DecodedJPEG([UInt8](jpegBytes))
        let (w, h) = (SimulatedCamera.binnedWidth, SimulatedCamera.binnedHeight)
        try #require(photo.width == w && photo.height == h)
        let isp = PreviewISP(maximumSourceWidth: w, maximumSourceHeight: h, maximumOutputWidth: w / 2)
        isp.setParameters(parameters, format: SimulatedScene.format)
        var preview = [UInt32](repeating: 0, count: w / 2 * h / 2)
        frame.bytes.withUnsafeBytes { raw in
            preview.withUnsafeMutableBufferPointer { out in
                isp.renderBayer(raw.baseAddress!, layout: RawLayout(width: w, height: h, format: SimulatedScene.format),
                                into: out.baseAddress!, outputWidth: w / 2, outputHeight: h / 2, outputStride: w / 2,
                                destination: PixelRect(x: 0, y: 0, width: w / 2, height: h / 2))
            }
        }
        var total = 0, count = 0, histogram = [Int](repeating: 0, count: 256)
        for y in 1..<(h / 2 - 1) {
            for x in 1..<(w / 2 - 1) {
                let p = preview[y * w / 2 + x]
                let viewfinder = [Int(p >> 16 & 0xFF), Int(p >> 8 & 0xFF), Int(p & 0xFF)]
                for c in 0..<3 {
                    // The photo's 2×2 block, averaged in its encoded values.
                    var sum = 0
                    for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] { sum += Int(photo.rgb[((2 * y + dy) * w + 2 * x + dx) * 3 + c]) }
                    let difference = abs((sum + 2) / 4 - viewfinder[c])
                    total += difference
                    histogram[difference] += 1
                    count += 1
                }
            }
        }
        var cumulative = 0
        let p99 = histogram.firstIndex { cumulative += $0; return Double(cumulative) >= 0.99 * Double(count) } ?? 255
        let mean = Double(total) / Double(count)
        // Stated tolerance: within 2.5 levels on average and 99 % within 20 (measured 1.5 and
        // 15: the photo's full-resolution demosaic keeps detail the half-size preview averages
        // away at edges, and JPEG rounds).
        #expect(mean < 2.5, "mean difference \(mean) levels")
        #expect(p99 <= 20, "99 % within \(p99) levels")
    }

    /// 16-bit samples LibRaw's unprocessed_raw decodes (a PGM it writes beside the file).
    static func unprocessedRaw(_ path: String) -> (width: Int, height: Int, values: [UInt16])? {
        guard ProgramRun.output(["/usr/bin/unprocessed_raw", "-q", path]) != nil,
              let data = FileManager.default.contents(atPath: path + ".pgm") else { return nil }
        let bytes = [UInt8](data)
        // "P5\n<w> <h>\n<max>\n" then big-endian samples.
        var fields: [Int] = [], index = 2, token = ""
        while fields.count < 3 && index < bytes.count {
            let c = bytes[index]
            if c == 0x20 || c == 0x0A {
                if !token.isEmpty { fields.append(Int(token) ?? 0); token = "" }
            } else {
                token.append(Character(UnicodeScalar(c)))
            }
            index += 1
        }
        guard fields.count == 3, bytes.count - index >= fields[0] * fields[1] * 2 else { return nil }
        let values = (0..<(fields[0] * fields[1])).map { UInt16(bytes[index + 2 * $0]) << 8 | UInt16(bytes[index + 2 * $0 + 1]) }
        return (fields[0], fields[1], values)
    }
}

/// The shutter's half press through the mailbox: Auto exposure, white balance and the
/// autofocus (the simulated sensor has one) held, then let go.
@Suite("The half press")
struct HalfPressTests {
    @Test func itHoldsExposureWhiteBalanceAndFocusUntilLetGo() {
        let log = TestLog()
        let stepped = SteppedPipeline(log: log.write)
        let pipeline = stepped.pipeline
        #expect(pipeline.start())
        defer { pipeline.stop() }
        #expect(stepped.step(until: { pipeline.status.latestSensorReport().status == .streaming }, frames: 10))
        pipeline.mailbox.lockExposure(true)
        #expect(stepped.step(until: { log.text.contains("autofocus held") }, frames: 10), "\(log.text)")
        #expect(log.text.contains("exposure and white balance held (half press)"))
        pipeline.mailbox.lockExposure(false)
        #expect(stepped.step(until: { log.text.contains("autofocus free again") }, frames: 10), "\(log.text)")
        #expect(log.text.contains("exposure and white balance free again"))
    }
}

/// Each frame's sequence number as the sensor thread delivered it: a gap is a dropped frame.
final class SequenceRecorder: FrameSink, @unchecked Sendable {
    let name = "sequences"
    let framesLost = 0
    private let sequences = Mutex<[UInt32]>([])
    func deliver(_ frame: SensorFrame) { sequences.withLock { $0.append(frame.sequence) } }
    var recorded: [UInt32] { sequences.withLock { $0 } }
}

/// Holding the shutter (docs/camera.md, Photos): three seconds at 10 frames a second, as the loop presses
/// for a held shutter (`BurstTimer`), on the simulated sensor at 30 fps stepped frame by frame:
/// 31 photos, each the frame under way at its press (every third frame), in order, none late,
/// all saved, and the stream's frames all delivered around them. (Whether the sensor keeps its
/// rate while the photos are made is a figure of the release build: `reflex bench burst`.)
extension CaptureTests {
    @Test func holdingTheShutterTakesEveryThirdFrameAndSavesThemAll() throws {
        // Spares for the whole burst, as `ZeroLagRing.sized` gives where the budget allows,
        // and a ring that reaches back past the hold (0.25 s) that tells a burst from a press:
        // its first photos are asked for then, for frames already taken.
        let rig = Rig(format: .raw, ringFrames: 12, spares: ZeroLagRing.burstSpares, stepped: true)
        let sequences = SequenceRecorder()
        rig.pipeline.mailbox.attach(sequences)
        rig.start()
        defer { rig.stop() }
        #expect(rig.step(frames: 10), "the sensor streams")
        let clock = try #require(rig.stepper).clock
        var timer = BurstTimer()
        let start = rig.pressDuringTheLastFrame
        var presses: [Double] = [], expected: [UInt32] = [], refused = 0
        /// A press as the loop asks it, and the frame it must take: the one under way then,
        /// the first whose end (its timestamp) is at or after it.
        func press(at time: Double) throws {
            if !rig.pipeline.mailbox.requestCapture(at: time) { refused += 1 }
            presses.append(time)
            expected.append(try #require(rig.recorder.recorded.first { $0.timestamp >= Int64(time * 1e9) }).sequence)
        }
        timer.press(at: start)
        try press(at: start)
        let end = start + 3
        // A frame at a time for three seconds, the presses falling due asked as the loop asks
        // them (the first ones once the hold is recognised, for frames already in the ring).
        while clock.now < end {
            #expect(rig.step())
            while let time = timer.next(at: clock.now) { try press(at: time) }
        }
        timer.release(at: end)
        while let time = timer.next(at: clock.now) { try press(at: time) }
        #expect(rig.step(), "the last press served")
        #expect(presses.count == 31, "the press and 30 more in three seconds")
        #expect(refused == 0, "the shutter took every press")
        /// The frame each photo took, as the photo thread logs it when the photo is saved.
        func photoFrames() -> [UInt32] {
            rig.log.text.split(separator: "\n").compactMap { line -> UInt32? in
                guard let range = line.range(of: #"photo \d+: frame (\d+)"#, options: .regularExpression) else { return nil }
                return UInt32(line[range].split(separator: " ").last!)
            }
        }
        // (The report's count and the log's line are two posts: both are waited for.)
        #expect(waitUntil { rig.photoReport().saved == presses.count && photoFrames().count == presses.count },
                "all saved: \(rig.log.text.suffix(1500))")
        let frames = photoFrames()
        #expect(frames == expected, "each photo the frame under way at its press, in order")
        #expect(Set(frames).count == frames.count, "a different frame each")
        #expect(!rig.log.text.contains("after the press"), "none late")
        // Every frame the stepper made reached the sinks, in order, none lost or repeated.
        let seen = sequences.recorded
        let firstSeen = try #require(seen.first), lastSeen = try #require(seen.last)
        // (`max`: a stream out of order fails here rather than trapping.)
        #expect(seen == Array(firstSeen...max(firstSeen, lastSeen)), "the stream without a gap")
    }
}
