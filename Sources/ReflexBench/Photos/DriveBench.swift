import ArgumentParser
import ReflexCore
import ReflexHardware
import ReflexRuntime
import ReflexStorage
import ReflexSystem
import ReflexUI
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The drive modes' timing on the whole camera (issue 37): the camera as the soak runs it
/// (simulated sensor at 30 fps, headless display at 60 Hz, the realtime loop, the photo
/// thread), the shutter key pressed as a photographer would. For each photo, the frame it
/// holds (from the photo thread's log) against the moment it was planned for (from the
/// frames' own timestamps): the self-timer's shot against its second, a bracket's frames
/// against each other, an interval run's photos against their grid, with the loop's missed
/// vblanks.
struct DriveBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drive", abstract: "Time the self-timer, bracketing and interval shooting on the whole camera.")

    @Option(help: "Self-timer shots (2 s each).") var timers = 10
    @Option(help: "Brackets of 7 frames ±1 EV.") var brackets = 10
    @Option(help: "Minutes of a 1-second interval run (the target is for 10).") var minutes = 10
    @Option(help: "Where the camera's log goes.") var logFile = "/tmp/reflex-drive.log"

    func run() throws {
        let fontFolder = try BenchFonts.folder()
        let log = SoakLog(path: logFile)
        defer { log.close() }
        print("Drive modes on the whole camera: simulated sensor at \(SimulatedCamera.framesPerSecond) fps, headless display "
              + "at 60 Hz, JPEG; the camera's log in \(logFile)")
        try selfTimer(fontFolder: fontFolder, log: log)
        try bracketing(fontFolder: fontFolder, log: log)
        try interval(fontFolder: fontFolder, log: log)
    }

    /// 2-second timers: each shot's frame against its second.
    private func selfTimer(fontFolder: String, log: SoakLog) throws {
        var drive = DriveSettings()
        (drive.mode, drive.selfTimer) = (.selfTimer, .twoSeconds)
        let part = try DrivePart(name: "self-timer", drive: drive, fontFolder: fontFolder, log: log)
        defer { part.finish() }
        var due: [Double] = []
        for _ in 0..<timers {
            due.append(part.press() + SelfTimerDelay.twoSeconds.seconds)
            usleep(3_000_000)
        }
        let photos = part.photos(count: timers)
        let offsets = zip(photos, due).compactMap { photo, due in part.offset(of: photo.sequence, from: due) }
        print(DriveBench.row("self-timer 2 s", count: "\(photos.count) of \(timers) shots", offsets: offsets,
                             period: part.period))
    }

    /// Brackets of 7: each bracket's frames against each other.
    private func bracketing(fontFolder: String, log: SoakLog) throws {
        var drive = DriveSettings()
        (drive.mode, drive.bracketFrames, drive.bracketStepThirds) = (.bracketing, 7, 3)
        let part = try DrivePart(name: "bracketing", drive: drive, fontFolder: fontFolder, log: log)
        defer { part.finish() }
        for _ in 0..<brackets {
            _ = part.press()
            usleep(2_000_000)
        }
        let photos = part.photos(count: brackets * 7)
        let sets = Dictionary(grouping: photos, by: \.press).values.map { $0.map(\.sequence).sorted() }
        let consecutive = sets.filter { $0.count == 7 && $0.last! - $0.first! == 6 }.count
        let spans = sets.map { Int($0.last! - $0.first!) + 1 }
        print("  bracketing 7 × ±1 EV: \(photos.count) photos in \(sets.count) sets; \(consecutive) of \(brackets) on 7 "
              + "consecutive frames (frames spanned: \(spans.sorted().map(String.init).joined(separator: " "))); "
              + "target 7 on 7: " + (consecutive == brackets ? "met" : "NOT met"))
    }

    /// A 1-second interval for `minutes`: each photo's frame against its planned moment,
    /// and the loop's missed vblanks over the run.
    private func interval(fontFolder: String, log: SoakLog) throws {
        var drive = DriveSettings()
        (drive.mode, drive.intervalSeconds, drive.intervalCount, drive.intervalDelaySeconds) = (.interval, 1, minutes * 60, 0)
        let part = try DrivePart(name: "interval", drive: drive, fontFolder: fontFolder, log: log)
        defer { part.finish() }
        let missedBefore = part.camera.loop.currentStatistics()?.missedVblanks ?? 0
        let start = part.press()
        usleep(UInt32(minutes) * 60_000_000 + 2_000_000)
        let statistics = part.camera.loop.currentStatistics()
        let missed = (statistics?.missedVblanks ?? missedBefore) - missedBefore
        let photos = part.photos(count: minutes * 60)
        // The k-th photo was planned k seconds after the press.
        let offsets = photos.enumerated().compactMap { index, photo in part.offset(of: photo.sequence, from: start + Double(index)) }
        let timing = DriveBench.row("interval 1 s × \(minutes) min", count: "\(photos.count) of \(minutes * 60) photos",
                                    offsets: offsets, period: part.period)
        let vblanks = "; missed vblanks \(missed) (target 0: " + (missed == 0 ? "met" : "NOT met") + ")"
        var loop = ""
        if let summary = statistics?.ring.summary() { loop = "; loop p99 " + Formatting.fixed(summary.p99, 2) + " ms" }
        print(timing + vblanks + loop)
    }

    /// Where each photo's frame began against the moment planned for it (negative: before
    /// it). Within one frame: the frame taken began at most a frame before the moment and at
    /// most a frame after it; under way at it: began before it and ended after it.
    static func row(_ what: String, count: String, offsets: [Double], period: Double) -> String {
        guard !offsets.isEmpty else { return "  \(what): \(count), no frame timed" }
        // (`offsets` are how long before the moment each frame began.)
        let starts = offsets.map { -$0 }
        let within = starts.filter { abs($0) <= period }.count
        let underWay = offsets.filter { $0 >= 0 && $0 < period }.count
        func ms(_ seconds: Double) -> String { (seconds > 0 ? "+" : "") + Formatting.fixed(seconds * 1000, 1) }
        return "  \(what): \(count); frame start − moment planned \(ms(starts.min()!)) … \(ms(starts.max()!)) ms "
            + "(a frame is \(Formatting.fixed(period * 1000, 1)) ms); \(underWay) of \(offsets.count) under way at it, "
            + "\(within) within one frame of it; target within one frame: " + (within == offsets.count ? "met" : "NOT met")
    }
}

/// One part of the drive bench: the camera in this process with its own card, state and
/// drive, the frames' timestamps kept and the photos' frames read from its log.
private final class DrivePart: @unchecked Sendable {
    let camera: SoakCamera
    private let folder: String
    private let timeline = FrameTimeline()
    private let lines = PhotoLines()

    init(name: String, drive: DriveSettings, fontFolder: String, log: SoakLog) throws {
        folder = "/tmp/reflex-drive-\(getpid())-\(name)"
        try AtomicFile.createFolder(folder + "/card")
        try AtomicFile.createFolder(folder + "/state")
        let lines = self.lines
        camera = try SoakCamera(card: folder + "/card", state: folder + "/state", fontFolder: fontFolder, modelPath: nil,
                                drive: drive, lenses: [], format: .jpeg) { line in
            log.write(line)
            if let photo = DrivePart.photo(in: line) { lines.saved.withLock { $0.append(photo) } }
        }
        camera.sensor.mailbox.attach(timeline)
        try camera.start()
        // Exposure settles and the loop runs before the first press.
        usleep(2_000_000)
    }

    /// "photo 12: frame 345, …" → (12, 345).
    static func photo(in line: String) -> (press: Int, sequence: UInt32)? {
        guard line.hasPrefix("photo "), let colon = line.firstIndex(of: ":"),
              let press = Int(line[line.index(line.startIndex, offsetBy: 6)..<colon]),
              line[colon...].hasPrefix(": frame ") else { return nil }
        let digits = line[line.index(colon, offsetBy: 8)...].prefix { $0.isNumber }
        return UInt32(digits).map { (press, $0) }
    }

    /// The shutter key pressed and let go now; the press's time.
    func press() -> Double {
        let time = monotonicSeconds()
        _ = camera.loop.post(.key(code: KeyCode.camera, pressed: true), at: time)
        _ = camera.loop.post(.key(code: KeyCode.camera, pressed: false), at: time + 0.05)
        return time
    }

    /// The photos saved, in order, once `count` are or 30 s have passed.
    func photos(count: Int) -> [(press: Int, sequence: UInt32)] {
        let deadline = monotonicSeconds() + 30
        while lines.saved.withLock({ $0.count }) < count && monotonicSeconds() < deadline { usleep(50_000) }
        return lines.saved.withLock { $0 }
    }

    /// The frame period, from the frames' own timestamps.
    var period: Double { timeline.period }

    /// How long before `moment` frame `sequence` began (nil: not seen).
    func offset(of sequence: UInt32, from moment: Double) -> Double? {
        timeline.end(of: sequence).map { moment - (Double($0) / 1e9 - period) }
    }

    func finish() {
        camera.stop()
        _ = try? ChildProcess.run(["/bin/rm", "-rf", folder], timeout: 120)
    }
}

/// The photos saved (press and frame), as the photo thread's log says them.
private final class PhotoLines: Sendable {
    let saved = Mutex<[(press: Int, sequence: UInt32)]>([])
}

/// Each frame's end (kernel timestamp) by its sequence, as the sensor thread delivers them.
private final class FrameTimeline: FrameSink, @unchecked Sendable {
    let name = "drive-timeline"
    let framesLost = 0
    private let ends = Mutex<[UInt32: Int64]>([:])

    func deliver(_ frame: SensorFrame) {
        ends.withLock { $0[frame.sequence] = frame.timestampNanoseconds }
    }

    func end(of sequence: UInt32) -> Int64? { ends.withLock { $0[sequence] } }

    /// The mean period over the frames seen.
    var period: Double {
        ends.withLock { ends in
            guard let first = ends.keys.min(), let last = ends.keys.max(), last > first,
                  let start = ends[first], let end = ends[last] else { return 1 / Double(SimulatedCamera.framesPerSecond) }
            return Double(end - start) / 1e9 / Double(last - first)
        }
    }
}
