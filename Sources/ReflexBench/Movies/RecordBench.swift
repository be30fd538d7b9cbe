import ArgumentParser
import ReflexCore
import ReflexFormats
import ReflexHardware
import ReflexISP
import ReflexRuntime
import ReflexStorage
import ReflexSystem
import ReflexUI
#if canImport(Glibc)
import Glibc
#endif

/// A movie recorded while the viewfinder runs: the simulated sensor streaming, the realtime
/// loop on the headless display at 60 Hz, and the movie thread rendering, encoding and
/// writing every frame. Reports the loop's frame times and missed vblanks while recording,
/// the frames the movie kept and dropped, and the encoder's CPU share, beside ffmpeg's
/// libx264 encoding the same frames with the same settings in the same run.
struct RecordBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record", abstract: "Benchmark recording a movie while the preview runs at 60 Hz.")

    @Option(help: "Seconds to record.") var seconds = 60.0
    @Option(help: "The movie's size: 1080p or 720p.") var video = "1080p"
    @Option(help: "Where the movie goes (a card's folder; emptied first).") var folder = "/tmp/reflex-bench-record"
    @Flag(help: "Draw every frame of the simulated sensor (the simulator's cost on the camera's cores) instead of a reel drawn once.")
    var drawEveryFrame = false

    func run() throws {
        guard let format = VideoFormat(named: video) else { throw BenchError("--video is 1080p or 720p") }
        let fontFolder = try BenchFonts.folder()
        _ = try? ChildProcess.runUntilLine(["/bin/rm", "-rf", folder], matching: nil, timeout: 30)
        try AtomicFile.createFolder(folder + "/state")
        let lines = LogLines()
        let rendering: SimulatedCamera.Rendering = drawEveryFrame ? .everyFrame : .reel
        let sensor = SensorPipeline(settings: CameraSettings(), calibration: .simulated,
                                    choice: CameraChoice(source: .simulated(.absoluteExposure, rendering: rendering)),
                                    log: { lines.add($0) })
        let card = folder
        let movies = MovieRecorder(numbering: CardNumbering(card: PhotoCard(root: card), counter: PhotoCounter(folder: card + "/state")),
                                   format: format, memoryToMemory: VideoEncoderProbe.memoryToMemoryH264Encoder(),
                                   cardSpace: { StorageProbe.freeBytes(at: card, requireMountPoint: false) },
                                   status: sensor.status, log: { lines.add($0) })
        sensor.mailbox.attach(movies.sink)
        movies.start()
        sensor.start()
        defer { sensor.stop(); movies.stop() }
        let display = try HeadlessDisplay(folder: nil)
        let loop = FrameLoop(display: display, preview: sensor.preview, status: sensor.status, mailbox: sensor.mailbox,
                             fonts: try FontLibrary(folder: fontFolder),
                             model: CameraModel(settings: CameraSettings(), limits: .unlimited), fNumber: 2.8,
                             movies: movies)
        // The loop on its own realtime thread, as the camera runs it.
        guard loop.start() else { throw BenchError("cannot start the realtime loop") }
        defer { loop.stop() }
        // Warm-up: the sensor streams and the loop shows it; the movie thread chooses its encoder.
        usleep(2_000_000)
        let encoder = movies.latestReport.encoder
        print("Recording \(format) (\(encoder.isEmpty ? "no encoder" : encoder)) from the simulated sensor "
              + "\(SimulatedCamera.width)x\(SimulatedCamera.height) at \(SimulatedCamera.framesPerSecond) fps, "
              + "for \(Formatting.fixed(seconds, 0)) s, while the loop shows the preview on the headless display at 60 Hz")
        guard let warm = loop.currentStatistics() else { throw BenchError("the loop does not answer") }
        let cpuBefore = ThreadTimes.seconds(named: "reflex-movie"), wallBefore = monotonicSeconds()
        let twin = SensorTwinShare()
        movies.send(.start)
        usleep(UInt32(seconds * 1_000_000))
        movies.send(.stop)
        let twinShare = twin.describe(rendering)
        guard let recorded = loop.currentStatistics() else { throw BenchError("the loop does not answer") }
        usleep(1_500_000)
        let wall = monotonicSeconds() - wallBefore - 1.5
        let encoderSeconds = ThreadTimes.seconds(named: "reflex-movie") - cpuBefore
        let summary = recorded.ring.summary(since: warm.ring)
        let movie = movies.latestReport
        print("  the loop while recording (\(recorded.scheduling)): \(summary.description)")
        print("  \(twinShare)")
        print("  the movie: \(movie.framesRecorded) frames in \(Formatting.fixed(movie.elapsedSeconds, 2)) s, "
              + "\(movie.framesDropped) dropped by the encoder → \(movie.lastPath ?? "no file")")
        for line in lines.matching(["movie", "allocations a frame"]) { print("    log: \(line)") }
        let perFrame = encoderSeconds / Double(max(movie.framesRecorded, 1))
        print("  the movie thread (ISP at \(format.width)x\(format.height), 4:2:0 conversion, \(encoder) "
              + "and its slice threads, MP4 writing): \(Formatting.fixed(100 * encoderSeconds / wall, 1))% of one CPU, "
              + "\(Formatting.fixed(perFrame * 1000, 1)) ms a frame")
        if let path = movie.lastPath { try reference(path, format: format, frames: movie.framesRecorded) }
        print("  targets: 0 missed vblanks and p99 ≤ 8 ms while recording; 0 frames dropped")
    }

    /// ffmpeg's libx264 with the movie's settings, encoding the movie's own frames (decoded
    /// from it): its CPU a frame, less what the decoding alone costs.
    private func reference(_ path: String, format: VideoFormat, frames: Int) throws {
        guard access("/usr/bin/ffmpeg", X_OK) == 0 else {
            print("  reference: ffmpeg not installed (apt-get install ffmpeg)")
            return
        }
        let decodeOnly = ["/usr/bin/ffmpeg", "-v", "error", "-threads", "1", "-i", path, "-f", "null", "-"]
        let encode = ["/usr/bin/ffmpeg", "-v", "error", "-threads", "1", "-i", path, "-c:v", "libx264", "-preset", "ultrafast",
                      "-tune", "zerolatency", "-threads", "2", "-b:v", "\(format.bitRate)",
                      "-maxrate", "\(format.bitRate * 5 / 4)", "-bufsize", "\(format.bitRate)", "-g", "\(format.keyframeInterval)",
                      "-pix_fmt", "yuv420p", "-f", "null", "-"]
        let decoding = ChildCPU.seconds { _ = try? ChildProcess.runUntilLine(decodeOnly, matching: nil, timeout: 600) }
        let encoding = ChildCPU.seconds { _ = try? ChildProcess.runUntilLine(encode, matching: nil, timeout: 600) }
        let perFrame = max(0, encoding - decoding) / Double(max(frames, 1))
        print("  reference: ffmpeg -c:v libx264 (ultrafast, zerolatency, 2 threads, same bit rate) on the same frames: "
              + "\(Formatting.fixed(perFrame * 1000, 1)) ms a frame, \(Formatting.fixed(perFrame * Double(format.framesPerSecond) * 100, 1))% "
              + "of one CPU at \(format.framesPerSecond) fps (decoding them, \(Formatting.fixed(decoding, 1)) s, left out)")
    }
}
