import ArgumentParser
import ReflexCore
import ReflexFormats
import ReflexHardware
import ReflexISP
import ReflexRuntime
import ReflexStorage
import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// A timelapse from an interval run's photos: `--shots` JPEGs of the simulated scene (its
/// ball moving between them, each with its own noise, as a camera's JPEGs, EXIF and all),
/// made first; then assembled as the camera assembles a run's (`TimelapseMaker`: read and
/// decoded a photo ahead on a second thread, encoded, written to a card folder as a movie is,
/// synced at each fragment) into a 1080p H.264 MP4, timed against the movie's own playing
/// time (≥ 4× is the target), beside ffmpeg making
/// the same movie from the same JPEGs with the same encoder settings. ffprobe counts the
/// movie's frames and reads its rate.
struct TimelapseBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timelapse", abstract: "Assemble an interval run's JPEGs into a timelapse movie, against ffmpeg.")

    @Option(help: "Photos in the run.") var shots = 300
    @Option(help: "The movie's frame rate: 24, 25 or 30.") var fps = 30
    @Option(help: "The photos' size (the camera's JPEGs: 1920x1080 from the stream, 4056x3040 from a 12 MP still mode).")
    var size = "1920x1080"
    @Option(help: "Where the photos and the movie are made (removed after).") var folder = "/tmp"

    func validate() throws {
        guard TimelapseEncoder.frameRates.contains(fps) else { throw ValidationError("--fps takes 24, 25 or 30") }
        guard shots >= 1 else { throw ValidationError("--shots takes 1 or more") }
        guard photoSize != nil else { throw ValidationError("--size takes WIDTHxHEIGHT, e.g. 1920x1080") }
    }

    private var photoSize: (width: Int, height: Int)? {
        let parts = size.split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, parts[0] >= 16, parts[1] >= 16 else { return nil }
        return (parts[0] & ~1, parts[1] & ~1)
    }

    func run() throws {
        let (width, height) = photoSize!
        let work = folder + "/reflex-timelapse-\(getpid())"
        try AtomicFile.createFolder(work)
        defer { _ = try? ChildProcess.run(["/bin/rm", "-rf", work], timeout: 60) }
        print("Timelapse: \(shots) JPEGs of \(width)x\(height) → a 1080p H.264 MP4 at \(fps) fps "
              + "(\(Formatting.fixed(Double(shots) / Double(fps), 1)) s of movie), in \(work)")
        let making = monotonicSeconds()
        let photos = try makePhotos(count: shots, width: width, height: height, in: work)
        print("  the photos made in \(Formatting.fixed(monotonicSeconds() - making, 1)) s "
              + "(\(photos.bytes / shots / 1000) KB each)")

        // The run's photos as the photo thread would have kept them, and the camera's maker.
        let card = work + "/card"
        try AtomicFile.createFolder(card)
        let runPhotos = IntervalRunPhotos()
        for path in photos.paths { runPhotos.saved(run: 1, jpeg: path) }
        let status = StatusBoard()
        let maker = TimelapseMaker(runPhotos: runPhotos, numbering: CardNumbering(card: PhotoCard(root: card), counter: PhotoCounter(folder: work)),
                                   status: status, log: { _ in })
        guard maker.start() else { throw BenchError("cannot start the timelapse thread") }
        defer { maker.stop() }
        let started = monotonicSeconds(), cpuBefore = ChildCPU.ownSeconds()
        maker.make(TimelapseMaker.Job(run: 1, photos: shots, framesPerSecond: fps))
        var seen = CameraStatus()
        while seen.timelapse.made + seen.timelapse.refused == 0 {
            usleep(2_000)
            status.update(&seen)
        }
        let seconds = monotonicSeconds() - started, cpu = ChildCPU.ownSeconds() - cpuBefore
        guard let name = seen.timelapse.lastName else { throw BenchError(seen.timelapse.lastRefusal ?? "no timelapse") }
        let movie = card + "/DCIM/100REFLX/" + name
        let playing = Double(shots) / Double(fps)
        print("  reflex (TimelapseMaker: reading and decoding photos ahead, fitting, encoding, writing as a movie): "
              + "\(Formatting.fixed(seconds, 2)) s, \(Formatting.fixed(seconds / Double(shots) * 1000, 1)) ms a photo, "
              + "\(Formatting.fixed(cpu / seconds * 100, 0))% of one CPU: **\(Formatting.fixed(playing / seconds, 1))× real time**")
        let probe = try ChildProcess.run(["/usr/bin/ffprobe", "-v", "error", "-select_streams", "v:0", "-count_frames",
                                          "-show_entries", "stream=nb_read_frames,r_frame_rate,width,height,codec_name",
                                          "-of", "csv=p=0", movie], timeout: 600)
        print("  ffprobe: \(probe.output.split(separator: "\n").joined(separator: "; ")) "
              + "(codec, width, height, rate, frames read)")
        try reference(photos.pattern, movie: work + "/ffmpeg.mp4", playing: playing)
        print("  target: ≥ 4× real time for 300 photos")
    }

    /// ffmpeg's own: the same JPEGs by its image demuxer, scaled to fit 1080p with the same
    /// area filter, libx264 at the camera's timelapse settings (ultrafast, frame threads, the bit rate).
    private func reference(_ pattern: String, movie: String, playing: Double) throws {
        guard access("/usr/bin/ffmpeg", X_OK) == 0 else {
            print("  reference: ffmpeg not installed (apt-get install ffmpeg)")
            return
        }
        let format = VideoFormat.fullHD
        let arguments = ["/usr/bin/ffmpeg", "-v", "error", "-y", "-framerate", "\(fps)", "-i", pattern,
                         "-vf", "scale=\(format.width):\(format.height):force_original_aspect_ratio=decrease:flags=area,"
                             + "pad=\(format.width):\(format.height):(ow-iw)/2:(oh-ih)/2",
                         "-c:v", "libx264", "-preset", "ultrafast", "-b:v", "\(format.bitRate)",
                         "-maxrate", "\(format.bitRate * 5 / 4)", "-bufsize", "\(format.bitRate)", "-g", "\(fps)",
                         "-pix_fmt", "yuv420p", movie]
        let started = monotonicSeconds()
        let cpu = ChildCPU.seconds { _ = try? ChildProcess.run(arguments, timeout: 1800) }
        let seconds = monotonicSeconds() - started
        print("  reference: ffmpeg -c:v libx264 (ultrafast, frame threads, same bit rate, same fit) on the same JPEGs: "
              + "\(Formatting.fixed(seconds, 2)) s, \(Formatting.fixed(cpu / seconds * 100, 0))% of one CPU: "
              + "\(Formatting.fixed(playing / seconds, 1))× real time")
    }

    /// `count` JPEGs of the simulated scene at `width` × `height`, 0.2 s of its time apart,
    /// through the photo ISP and the camera's JPEG encoder.
    private func makePhotos(count: Int, width: Int, height: Int, in folder: String) throws
        -> (paths: [String], pattern: String, bytes: Int) {
        let layout = RawLayout(width: width, height: height, format: SimulatedScene.format)
        let raw = UnsafeMutableRawBufferPointer.allocate(byteCount: layout.byteCount, alignment: 64)
        let rgb = UnsafeMutablePointer<UInt8>.allocate(capacity: width * height * 3)
        defer {
            raw.deallocate()
            rgb.deallocate()
        }
        let scene = SimulatedScene(noise: true)
        let isp = PhotoISP(maximumWidth: width, maximumSourceWidth: width)
        let parameters = ISPParameters(blackLevel: SimulatedScene.blackLevel, whiteLevel: SimulatedScene.whiteLevel,
                                       whiteBalance: SIMD3(1.2, 1, 1.4), colorMatrix: ColourCalibration().previewMatrix)
        var paths: [String] = [], bytes = 0
        for index in 0..<count {
            scene.render(into: raw.baseAddress!, layout: layout, time: Double(index) * 0.2,
                         setting: ExposureSetting(exposure: 0.01, analogGain: 2), frameNumber: UInt64(index + 1))
            isp.render(raw.baseAddress!, layout: layout, parameters: parameters, into: rgb, outputStride: width * 3)
            let jpeg = try JPEGEncoder.encode(RGBImage(pixels: rgb, width: width, height: height), quality: 92,
                                              photo: PhotoFileBench.photo)
            let number = String(index + 1)
            let path = folder + "/RFLX" + String(repeating: "0", count: max(0, 4 - number.count)) + number + ".JPG"
            try AtomicFile.write(jpeg, to: path)
            paths.append(path)
            bytes += jpeg.count
        }
        return (paths, folder + "/RFLX%04d.JPG", bytes)
    }
}
