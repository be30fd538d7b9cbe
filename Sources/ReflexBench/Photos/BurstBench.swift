import ArgumentParser
import ReflexCore
import ReflexHardware
import ReflexRuntime
import ReflexStorage
import ReflexSystem
import ReflexUI
import ReflexISP
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// `reflex bench burst`: the shutter held for three seconds (`BurstTimer`, 10 frames a second)
/// on the simulated sensor in its 12 MP mode (4056x3040 at 10 fps, as an IMX477 streams its
/// full frame; `--size 1280x720` for its 30 fps mode), RAW, through the camera's own pipeline
/// with the realtime loop presenting the preview on the headless display at 60 Hz: the frames
/// dropped by the stream during the burst, the photos saved, the loop's frame times and
/// missed vblanks while they are saved, the save throughput beside plain write + fsync of the
/// same bytes on the same file system, and the peak memory beside the budget.
struct BurstBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "burst", abstract: "Benchmark a held shutter's burst of RAW photos against write + fsync.")

    @Option(help: "Seconds the shutter is held.") var seconds = 3.0
    @Option(help: "Where the photos go (default: /tmp; give the card's to bench the card): a folder of the bench's own is made there and removed after.")
    var folder: String?
    @Option(help: "The simulated sensor's mode: 4056x3040 (12 MP, 10 fps) or 1280x720 (30 fps).")
    var size = "4056x3040"
    @Option(help: "Cap the frames' memory at this many MB, as a board's frame-memory-mb does.")
    var frameMemoryMb: Int?
    @Flag(help: "Draw every frame of the simulated sensor (the simulator's cost on the camera's cores) instead of a reel drawn once.")
    var drawEveryFrame = false

    /// Each frame's sequence number as delivered: a gap is a dropped frame.
    final class Sequences: FrameSink, @unchecked Sendable {
        let name = "sequences"
        let framesLost = 0
        private let seen = Mutex<[UInt32]>([])
        func deliver(_ frame: SensorFrame) { seen.withLock { $0.append(frame.sequence) } }
        var recorded: [UInt32] { seen.withLock { $0 } }
    }

    /// The simulated sensor's calibration streaming `size` (a mode above the preview's size is
    /// the photos' and the preview's both, as a board's `still-size` with `stills = stream`).
    func calibration() throws -> SensorCalibration {
        let sides = size.lowercased().split(separator: "x").compactMap { Int($0) }
        guard sides.count == 2 else { throw BenchError("--size is WIDTHxHEIGHT") }
        var calibration = SensorCalibration.simulated
        calibration.frameMemoryBytes = frameMemoryMb.map { $0 << 20 }
        if sides[0] * sides[1] > calibration.previewWidth * calibration.previewHeight {
            (calibration.stillWidth, calibration.stillHeight) = (sides[0], sides[1])
            calibration.stillsBy = .stream
        } else {
            (calibration.previewWidth, calibration.previewHeight) = (sides[0], sides[1])
        }
        return calibration
    }

    func run() throws {
        // (In a folder of its own, even on a card given: the bench never touches what the
        // card holds, and leaves nothing behind.)
        let work = (folder ?? "/tmp") + "/reflex-bench-burst-\(getpid())"
        try AtomicFile.createFolder(work + "/state")
        defer { _ = system("rm -rf '\(work)'") }
        let calibration = try calibration()
        var settings = CameraSettings()
        settings.format = .raw
        let rendering: SimulatedCamera.Rendering = drawEveryFrame ? .everyFrame : .reel
        let sensor = SensorPipeline(settings: settings, calibration: calibration,
                                    choice: CameraChoice(source: .simulated(.absoluteExposure, rendering: rendering)),
                                    log: { line in if getenv("BENCH_DEBUG") != nil { print(line) } })
        let sequences = Sequences()
        sensor.mailbox.attach(sequences)
        let lines = Mutex<[String]>([])
        let (photos, kept) = CameraWiring.photos(for: sensor, calibration: calibration, cardFolder: work,
                                                 stateFolder: work + "/state", software: "Reflex bench",
                                                 log: { line in lines.withLock { $0.append(line) } })
        let loop = try Self.startLoop(sensor: sensor, settings: settings)
        sensor.start()
        defer {
            loop.stop()
            sensor.stop()
            photos.stop()
        }
        usleep(2_000_000)
        guard let beforeBurst = loop.currentStatistics(timeout: 5) else { throw BenchError("the loop does not answer") }
        var timer = BurstTimer()
        let twin = SensorTwinShare()
        let start = monotonicSeconds()
        timer.press(at: start)
        var presses = 1
        guard sensor.mailbox.requestCapture(at: start) else { throw BenchError("the shutter refused the press") }
        while monotonicSeconds() < start + seconds {
            usleep(16_000)  // the realtime loop's pace at 60 Hz
            while let time = timer.next(at: monotonicSeconds()) {
                if sensor.mailbox.requestCapture(at: time) { presses += 1 }
            }
        }
        timer.release(at: start + seconds)
        while let time = timer.next(at: start + seconds + 0.01) {
            if sensor.mailbox.requestCapture(at: time) { presses += 1 }
        }
        // Each photo ends in one line: "photo 12: frame 345 → RFLX0012.DNG" or "photo 12 not saved: …".
        func ended() -> [String] { lines.withLock { $0 }.filter { $0.hasPrefix("photo ") && ($0.contains("→") || $0.contains("not saved")) } }
        let deadline = monotonicSeconds() + 180
        while monotonicSeconds() < deadline && ended().count < presses { usleep(20_000) }
        let savedAt = monotonicSeconds()
        let twinShare = twin.describe(rendering)
        guard let afterBurst = loop.currentStatistics(timeout: 5) else { throw BenchError("the loop does not answer") }
        let whileSaving = afterBurst.ring.summary(since: beforeBurst.ring)
        let endings = ended()
        let saved = endings.filter { $0.contains("→") }.count
        let frames = endings.compactMap { line -> Int? in
            guard let mark = line.split(separator: " ").firstIndex(of: "frame") else { return nil }
            let words = line.split(separator: " ")
            return words.count > mark + 1 ? Int(words[mark + 1].filter(\.isNumber)) : nil
        }
        guard let first = frames.min(), let last = frames.max() else { throw BenchError("no photo was saved") }
        let stream = Set(sequences.recorded.map(Int.init))
        let dropped = (first...last).filter { !stream.contains($0) }.count
        let consecutive = Set(frames).count == last - first + 1
        // The files as written, then the same bytes with plain write + fsync, same folder.
        let photosFolder = work + "/DCIM/100REFLX"
        let sizes = namesInFolder(photosFolder).compactMap { name -> Int? in
            var info = stat()
            return stat(photosFolder + "/" + name, &info) == 0 ? Int(info.st_size) : nil
        }
        let total = sizes.reduce(0, +)
        let saveSeconds = savedAt - start
        let reference = try Self.writeAndSync(sizes: sizes, folder: work + "/reference")
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let peak = Int(usage.ru_maxrss) * 1024
        let mode = sensor.status.latestSensorReport()
        func megabytes(_ bytes: Double) -> String { Formatting.fixed(bytes / 1e6, 1, width: 0) }
        print("Burst: the shutter held \(Formatting.fixed(seconds, 1, width: 0)) s at 10 fps on the simulated sensor "
              + "(\(mode.width)x\(mode.height) RAW), the last \(kept) frames kept, the preview on the headless display at 60 Hz")
        print("  \(presses) presses, \(saved) photos saved (\(endings.count - saved) failed), frames \(first)…\(last)"
              + (consecutive ? " (consecutive)" : " (not consecutive)") + ", "
              + "\(dropped) frames dropped by the stream during the burst (target 0)")
        print("  the realtime loop from the press until the last photo was saved: \(whileSaving.description) "
              + "(target: p99 ≤ 8 ms, 0 missed vblanks)")
        print("  \(twinShare)")
        print("  saved \(megabytes(Double(total))) MB in \(Formatting.fixed(saveSeconds, 2, width: 0)) s from the press "
              + "(\(megabytes(Double(total) / saveSeconds)) MB/s while shooting); the same files by plain write + fsync: "
              + "\(megabytes(Double(total) / reference)) MB/s (\(Formatting.fixed(reference, 2, width: 0)) s)")
        let limit = [MemoryBudget.cgroupLimit(), MemoryBudget.availableMemory()].compactMap { $0 }.min()
        let reel = SensorTwinShare.reelBytes
        let camerasShare = reel > 0 ? "the camera's \(megabytes(Double(peak - reel))) MB beside the sensor twin's reel of "
            + "\(megabytes(Double(reel))) MB; " : ""
        print("  peak memory (RSS) \(megabytes(Double(peak))) MB, \(camerasShare)the frames' budget "
              + "\(megabytes(Double(MemoryBudget.forFrames(cap: calibration.frameMemoryBytes)))) MB "
              + "of the \(limit.map { megabytes(Double($0)) } ?? "?") MB the camera may use (memory.max or available)")
        try saveThroughput(folder: work + "/large")
    }

    /// The realtime loop on the headless display, fed by the sensor as in the camera.
    static func startLoop(sensor: SensorPipeline, settings: CameraSettings) throws -> FrameLoop {
        let fontFolder = try BenchFonts.folder()
        let loop = FrameLoop(display: try HeadlessDisplay(folder: nil), preview: sensor.preview, status: sensor.status,
                             mailbox: sensor.mailbox, fonts: try FontLibrary(folder: fontFolder),
                             model: CameraModel(settings: settings, limits: .unlimited), fNumber: 2.8)
        guard loop.start() else { throw BenchError("cannot start the realtime loop's thread") }
        return loop
    }

    /// The photo thread's own pace on 12 MP frames: 30 RAW photos of a 4056x3040 frame fed to
    /// it as fast as it takes them (four frames of memory lent round, as the ring's spares
    /// are), developed and saved, beside plain write + fsync of the same files' bytes.
    func saveThroughput(folder: String) throws {
        try AtomicFile.createFolder(folder + "/state")
        let frame = LargeFrame(width: 4056, height: 3040)
        defer { frame.free() }
        let free = Mutex<[FrameCopy]>((0..<4).map { _ in FrameCopy(reserving: frame.layout.byteCount) })
        let status = StatusBoard()
        let photos = PhotoPipeline(numbering: CardNumbering(card: PhotoCard(root: folder), counter: PhotoCounter(folder: folder + "/state")),
                                   describer: PhotoDescriber(calibration: .simulated, software: "Reflex bench"),
                                   status: status, giveBack: { copy in free.withLock { $0.append(copy) } }, log: { _ in })
        photos.start()
        defer { photos.stop() }
        var settings = CameraSettings()
        settings.format = .raw
        let count = 30
        let started = monotonicSeconds()
        var sent = 0
        while sent < count {
            guard let copy = free.withLock({ $0.popLast() }) else {
                usleep(1000)
                continue
            }
            copy.fill(frame.sensorFrame(sequence: UInt32(sent)))
            let capture = TakenPhoto(frame: copy, press: ControlMailbox.CaptureRequest(number: sent + 1, ticket: nil,
                                                                                       pressedAt: 0, framing: Framing(zoom: 1), format: nil),
                                       settings: settings, iso: 100, framesLate: 0, pressedAt: PhotoClock.localTime(atMonotonic: 0))
            while !photos.inbox.send(capture) { usleep(1000) }
            sent += 1
        }
        var report = CameraStatus()
        while true {
            status.update(&report)
            if report.photo.saved + report.photo.failed >= count { break }
            usleep(2000)
        }
        let seconds = monotonicSeconds() - started
        let photoFolder = folder + "/DCIM/100REFLX"
        let sizes = namesInFolder(photoFolder).compactMap { name -> Int? in
            var info = stat()
            return stat(photoFolder + "/" + name, &info) == 0 ? Int(info.st_size) : nil
        }
        let total = Double(sizes.reduce(0, +))
        let reference = try Self.writeAndSync(sizes: sizes, folder: folder + "/reference")
        func rate(_ seconds: Double) -> String { Formatting.fixed(total / seconds / 1e6, 0, width: 0) + " MB/s" }
        print("Saving 12 MP RAW photos back to back: \(report.photo.saved) DNGs of \(Formatting.fixed(total / Double(max(sizes.count, 1)) / 1e6, 1, width: 0)) MB "
              + "(the frame copied in, encoded, written atomically) at \(rate(seconds)); plain write + fsync of the same bytes "
              + "\(rate(reference)): \(Formatting.fixed(seconds / reference, 2, width: 0))× its time")
    }

    /// Seconds to write files of `sizes` one after the other, each fsynced.
    static func writeAndSync(sizes: [Int], folder: String) throws -> Double {
        try AtomicFile.createFolder(folder)
        let bytes = [UInt8](repeating: 0x5A, count: sizes.max() ?? 0)
        let started = monotonicSeconds()
        for (index, size) in sizes.enumerated() {
            let file = try FileDescriptor(opening: folder + "/\(index)", O_WRONLY | O_CREAT | O_TRUNC, permissions: 0o644)
            try bytes.withUnsafeBytes { buffer in
                try Result { () throws(SystemError) in try file.writeAll(buffer.baseAddress!, count: size) }.get()
            }
            try file.sync()
            try file.close()
        }
        return monotonicSeconds() - started
    }
}
