import ReflexTestSupport
import Foundation
import ReflexCore
import ReflexFormats
import ReflexHardware
import ReflexISP
import ReflexStorage
import ReflexSystem
import Synchronization
import Testing
@testable import ReflexRuntime

/// Keeps every frame the sensor delivered (its time, bytes and ISP parameters), to render
/// the preview of the frames a movie holds.
final class SensorFrameLog: FrameSink, @unchecked Sendable {
    struct Kept {
        let timestamp: Int64
        let bytes: [UInt8]
        let parameters: ISPParameters?
        let layout: RawLayout?
    }
    let name = "frame log"
    let framesLost = 0
    private let frames = Mutex<[Kept]>([])

    func deliver(_ frame: SensorFrame) {
        let kept = Kept(timestamp: frame.timestampNanoseconds, bytes: Array(frame.bytes), parameters: frame.parameters,
                        layout: frame.mode.rawLayout)
        frames.withLock { $0.append(kept); if $0.count > 300 { $0.removeFirst() } }
    }

    /// Frames captured from `start` to `end` (nanoseconds, inclusive).
    func count(from start: Int64, to end: Int64) -> Int {
        frames.withLock { $0.filter { $0.timestamp >= start && $0.timestamp <= end }.count }
    }

    /// The frame captured nearest `nanoseconds`.
    func frame(near nanoseconds: Int64) -> Kept? {
        frames.withLock { $0.min { abs($0.timestamp - nanoseconds) < abs($1.timestamp - nanoseconds) } }
    }
}

/// Movies end to end on the simulated sensor: the record command through the movie thread,
/// frames from the recording sink, H.264 in MP4 on a card folder, read back by libavformat.
@Suite("Recording", .serialized)
struct RecordingTests {
    /// The binned simulated sensor (640x360, 30 fps) and a movie of its size, so a debug
    /// build keeps up.
    static let format = VideoFormat(width: 640, height: 360, bitRate: 3_000_000)

    final class Rig {
        let card = TemporaryFolder()
        let state = TemporaryFolder()
        /// The sensor, stepped frame by frame: each frame waits until the movie thread has
        /// encoded what it was given, so the movie holds every frame on any machine.
        let sensor: SteppedPipeline
        var pipeline: SensorPipeline { sensor.pipeline }
        let recorder: MovieRecorder
        /// Photos too, numbered with the movies (with `photos`).
        let photos: PhotoPipeline?
        let frames = SensorFrameLog()
        let log = TestLog()
        private var status = CameraStatus()

        init(card: String? = nil, cardSpace: (@Sendable () -> Int64?)? = nil, microphone: String? = nil,
             openSound: @escaping SoundCaptureOpener = Microphone.opener, withPhotos: Bool = false) {
            sensor = SteppedPipeline(log: log.write)
            let pipeline = sensor.pipeline
            let root = card ?? self.card.path
            let numbering = CardNumbering(card: PhotoCard(root: root), counter: PhotoCounter(folder: state.path))
            if withPhotos {
                let ring = ZeroLagRing(ringFrames: 6, spares: 2, frameBytes: 0)
                let photos = PhotoPipeline(numbering: numbering, describer: PhotoDescriber(calibration: .simulated, software: "Reflex test"),
                                           status: pipeline.status, giveBack: { ring.giveBack($0) }, log: log.write)
                pipeline.takePhotos(ring: ring, photos: photos)
                #expect(photos.start())
                self.photos = photos
            } else {
                self.photos = nil
            }
            recorder = MovieRecorder(numbering: numbering,
                                     format: RecordingTests.format, microphone: microphone, openSound: openSound,
                                     cardSpace: cardSpace ?? { StorageProbe.freeBytes(at: root, requireMountPoint: false) },
                                     status: pipeline.status, log: log.write)
            pipeline.mailbox.attach(frames)
            pipeline.mailbox.attach(recorder.sink)
            let sink = recorder.sink
            sensor.caughtUp = { sink.framesInFlight == 0 }
            #expect(recorder.start())
            #expect(pipeline.start())
        }

        func stop() {
            pipeline.stop()
            recorder.stop()
            photos?.stop()
        }

        func photoReport() -> PhotoReport {
            pipeline.status.update(&status)
            return status.photo
        }

        /// The sensor's next frames, one at a time, each encoded before the next is made.
        @discardableResult
        func step(frames count: Int = 1) -> Bool { sensor.step(frames: count) }

        /// Frame by frame until `condition` holds (true) or `limit` frames were made (false).
        func step(until condition: () -> Bool, frames limit: Int) -> Bool { sensor.step(until: condition, frames: limit) }

        func movieReport() -> MovieReport {
            pipeline.status.update(&status)
            return status.movie
        }
    }

    @Test func aRecordingIsH264OfItsSizeWithEverySensorFrameAndMatchesThePreview() throws {
        let rig = Rig()
        defer { rig.stop() }
        #expect(rig.step(frames: 5), "the sensor streams: \(rig.log.text)")
        #expect(rig.recorder.send(.toggle))
        #expect(rig.step(until: { rig.movieReport().framesRecorded >= 75 }, frames: 150), "recording: \(rig.log.text)")
        #expect(rig.movieReport().recording)
        #expect(rig.recorder.send(.toggle))
        #expect(waitUntil { rig.movieReport().saved == 1 }, "saved: \(rig.log.text)")
        let report = rig.movieReport()
        #expect(!report.recording && report.message == nil)
        #expect(report.framesDropped == 0, "\(rig.log.text)")
        let path = rig.card.path + "/DCIM/100REFLX/RFLX0001.MP4"
        #expect(report.lastPath == path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: rig.card.path + "/DCIM/100REFLX") == ["RFLX0001.MP4"])

        let reader = try MovieReader(path: path)
        #expect(reader.streams.first == .init(kind: "video", codec: "h264", width: 640, height: 360, sampleRate: 0, channels: 0))
        let times = try reader.packetTimes(of: "video")
        #expect(times.count == report.framesRecorded)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
        // Every frame the sensor gave while recording is in the movie, at its capture time
        // from the first (a frame the sensor itself dropped leaves its slot empty: a slow,
        // unoptimised test build drops some).
        let start = rig.recorder.sink.startNanoseconds
        let end = start + Int64(((times.last ?? 0) + 1.0 / 60) * 1e9)
        #expect(times.count == rig.frames.count(from: start, to: end), "\(rig.log.text)")
        for time in times {
            let frame = try #require(rig.frames.frame(near: start + Int64(time * 1e9)))
            #expect(abs(Double(frame.timestamp - start) / 1e9 - time) < 1.0 / 60, "a packet at \(time) s")
        }

        // Each decoded frame against the preview ISP's rendering of the sensor frame it came from.
        let isp = PreviewISP(maximumSourceWidth: 640, maximumSourceHeight: 360, maximumOutputWidth: 640)
        var expected = [UInt32](repeating: 0, count: 640 * 360)
        var worst = 99.0, compared = 0
        try MovieReader(path: path).decodeVideo { picture in
            guard compared < 20, let frame = rig.frames.frame(near: start + Int64(picture.seconds * 1e9)),
                  let layout = frame.layout, let parameters = frame.parameters else { return }
            isp.setParameters(parameters, format: layout.format)
            frame.bytes.withUnsafeBytes { raw in
                expected.withUnsafeMutableBufferPointer { out in
                    isp.renderBayer(raw.baseAddress!, layout: layout, into: out.baseAddress!, outputWidth: 640,
                                    outputHeight: 360, outputStride: 640,
                                    destination: PixelRect(x: 0, y: 0, width: 640, height: 360))
                }
            }
            worst = min(worst, PictureDifference.peakSignalToNoise(picture.pixels, expected))
            compared += 1
        }
        #expect(compared == 20)
        #expect(worst >= 30, "worst frame \(worst) dB")
    }

    @Test func aRecordingStopsItselfBeforeTheCardIsFullAndLeavesAPlayableFile() throws {
        // A card whose room shrinks as the movie grows: enough to start, full two seconds in.
        let budget = RecordingBudget(bytesPerSecond: RecordingTests.format.bytesPerSecond(audioBitRate: 0))
        let room = budget.startBytes + 1000
        let written = Atomic<Int64>(0)
        let rig = Rig(cardSpace: { room - written.load(ordering: .relaxed) })
        defer { rig.stop() }
        #expect(rig.step(frames: 5))
        #expect(rig.recorder.send(.start))
        #expect(waitUntil { rig.movieReport().recording })
        // Two seconds in, the card fills.
        #expect(rig.step(until: { rig.movieReport().framesRecorded >= 60 }, frames: 120))
        written.store(budget.startBytes - budget.reserveBytes + 2000, ordering: .relaxed)
        // (The card is looked at as each second's fragment ends.)
        #expect(rig.step(until: { rig.movieReport().saved == 1 }, frames: 60), "\(rig.log.text)")
        let report = rig.movieReport()
        #expect(!report.recording)
        #expect(report.message == "Recording stopped: the card is full")
        let times = try MovieReader(path: try #require(report.lastPath)).packetTimes(of: "video")
        #expect(times.count >= 60)
        // No room to start again.
        #expect(rig.recorder.send(.start))
        #expect(waitUntil { rig.movieReport().message == "Cannot record: the card is full" })
        #expect(!rig.movieReport().recording)
    }

    /// A card that fills faster than the check sees it (its free space misreported): the write
    /// fails with ENOSPC, the recording stops with the message, and what was written up to the
    /// last whole fragment is kept, shown and plays.
    @Test(.tags(.externalTool)) func aCardFullMidWriteKeepsThePlayablePart() throws {
        let card = try SmallCard(kilobytes: 2048)
        let root = card.path
        let rig = Rig(card: root, cardSpace: { 1 << 40 })
        defer { rig.stop() }
        #expect(rig.step(frames: 5))
        #expect(rig.recorder.send(.start))
        #expect(rig.step(until: { rig.movieReport().saved == 1 }, frames: 900), "\(rig.log.text)")
        let report = rig.movieReport()
        #expect(!report.recording && report.message == "Recording stopped: the card is full", "\(rig.log.text)")
        let path = try #require(report.lastPath)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/DCIM/100REFLX") == ["RFLX0001.MP4"])
        let times = try MovieReader(path: path).packetTimes(of: "video")
        #expect(times.count >= 30, "a second or more plays: \(times.count) frames")
        #expect(rig.log.text.contains("kept up to its last whole second"))
    }

    /// A board slower than its stream (the encoder behind, every slot it gives back filled at
    /// once) still hears the stop: the movie is finished while frames keep coming, holding
    /// only the frames kept before the stop was heard, not every frame the sensor went on
    /// making. (The test is the sensor here: it hands the recording sink 30 fps frames as fast
    /// as it can copy them, far faster than any build encodes them.)
    @Test func theStopIsHeardWhileTheEncoderIsBehind() throws {
        let card = TemporaryFolder(), state = TemporaryFolder()
        let log = TestLog()
        let numbering = CardNumbering(card: PhotoCard(root: card.path), counter: PhotoCounter(folder: state.path))
        let status = StatusBoard()
        let recorder = MovieRecorder(numbering: numbering, format: RecordingTests.format,
                                     cardSpace: { StorageProbe.freeBytes(at: card.path, requireMountPoint: false) },
                                     status: status, log: log.write)
        #expect(recorder.start())
        defer { recorder.stop() }
        let (width, height) = (RecordingTests.format.width, RecordingTests.format.height)
        let format = RawFormat(cfa: .rggb, bitsPerSample: 10, packing: .unpacked16)
        let mode = CameraSession.Mode(path: "test", card: "test frames", fourCC: 0, width: width, height: height,
                                      bytesPerLine: width * 2, rawFormat: format, framesPerSecond: 30)
        let pixels = [UInt16](repeating: 300, count: width * height)
        var sequence: UInt32 = 0
        /// The next frame, 1/30 s after the last, to the sink.
        func deliver() {
            sequence += 1
            pixels.withUnsafeBytes { bytes in
                recorder.sink.deliver(SensorFrame(bytes: bytes, mode: mode, sequence: sequence,
                                                  timestampNanoseconds: Int64(sequence) * 33_333_333,
                                                  exposure: ExposureSetting(exposure: 1.0 / 60, analogGain: 1),
                                                  parameters: ISPParameters(blackLevel: 64, whiteLevel: 1023), sensorZoom: 1))
            }
        }
        #expect(recorder.send(.start))
        #expect(waitUntil { recorder.latestReport.recording }, "\(log.text)")
        // The encoder falls behind, busy with the frames it has: the sink drops frames for want
        // of a free slot.
        let deadline = monotonicSeconds() + 60
        while recorder.latestReport.framesRecorded < 15 || recorder.sink.framesLost < 20, monotonicSeconds() < deadline {
            deliver()
        }
        try #require(recorder.sink.framesLost >= 20 && recorder.latestReport.framesRecorded >= 15,
                     "the encoder never fell behind: \(recorder.latestReport)")
        #expect(recorder.send(.stop))
        let encodedAtStop = recorder.latestReport.framesRecorded
        let deliveredAtStop = Int(sequence)
        while recorder.latestReport.saved == 0, monotonicSeconds() < deadline { deliver() }
        let report = recorder.latestReport
        try #require(report.saved == 1, "the movie was not finished while \(Int(sequence) - deliveredAtStop) frames came after the stop: \(log.text.suffix(1500))")
        // Heard after one pass over the sink's slots at most: the frames kept by then, not those after.
        #expect(report.framesRecorded <= encodedAtStop + RecordingTests.format.framesPerSecond / 2 + 2 * RecordingSink.slotCount,
                "\(report.framesRecorded) frames recorded, \(encodedAtStop) reported at the stop, \(Int(sequence) - deliveredAtStop) made after it")
        let times = try MovieReader(path: try #require(report.lastPath)).packetTimes(of: "video")
        #expect(times.count == report.framesRecorded)
    }

    /// A photo taken while a movie records is saved beside it, under the next number.
    @Test func aPhotoWhileRecordingIsWelcome() throws {
        let rig = Rig(withPhotos: true)
        defer { rig.stop() }
        #expect(rig.step(frames: 5))
        #expect(rig.recorder.send(.start))
        #expect(rig.step(until: { rig.movieReport().framesRecorded >= 15 }, frames: 30), "\(rig.log.text)")
        #expect(rig.pipeline.mailbox.requestCapture(at: rig.sensor.stepper.clock.now))
        #expect(rig.step(), "the press's frame")
        #expect(waitUntil { rig.photoReport().saved == 1 }, "\(rig.log.text)")
        #expect(rig.movieReport().recording)
        #expect(rig.recorder.send(.stop))
        #expect(waitUntil { rig.movieReport().saved == 1 })
        let names = try FileManager.default.contentsOfDirectory(atPath: rig.card.path + "/DCIM/100REFLX").sorted()
        #expect(names == ["RFLX0001.MP4", "RFLX0002.JPG"], "\(names)")
        #expect(rig.movieReport().framesDropped == 0)
    }

    /// A board whose microphone is missing records movies without sound, and says why.
    @Test func noMicrophoneMeansAMovieWithoutSound() throws {
        let rig = Rig(microphone: "hw:CARD=NoSuchCard,DEV=0")
        defer { rig.stop() }
        #expect(rig.step(frames: 5))
        #expect(rig.recorder.send(.start))
        #expect(rig.step(until: { rig.movieReport().framesRecorded >= 20 }, frames: 40), "\(rig.log.text)")
        #expect(rig.recorder.send(.stop))
        #expect(waitUntil { rig.movieReport().saved == 1 })
        #expect(rig.log.text.contains("movie: no sound: the microphone cannot be opened (hw:CARD=NoSuchCard,DEV=0: "))
        let streams = try MovieReader(path: try #require(rig.movieReport().lastPath)).streams
        #expect(streams.map(\.kind) == ["video"])
    }

    /// Sound always waiting (each chunk given back filled again at once, as on a board slower
    /// than its microphone): the movie thread still takes every frame and hears the stop.
    /// (It took the sound until none was waiting: on the slow board the movie lost every
    /// frame and was finished minutes after its stop; here the steps found no frame taken.)
    @Test func soundAlwaysWaitingStillLetsTheMovieTakeItsFramesAndStop() throws {
        let rig = Rig(microphone: "backlog", openSound: BackloggedSound.opener(seconds: 90))
        defer { rig.stop() }
        #expect(rig.step(frames: 5))
        #expect(rig.recorder.send(.start))
        #expect(rig.step(until: { rig.movieReport().framesRecorded >= 20 }, frames: 40), "\(rig.log.text)")
        #expect(rig.recorder.send(.stop))
        #expect(waitUntil { rig.movieReport().saved == 1 }, "\(rig.log.text)")
        #expect(rig.log.text.contains("sound from a backlog (a test's)"), "\(rig.log.text)")
        let streams = try MovieReader(path: try #require(rig.movieReport().lastPath)).streams
        #expect(streams.map(\.kind) == ["video", "audio"])
    }
}
