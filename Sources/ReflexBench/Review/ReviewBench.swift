import ArgumentParser
import CTurboJPEG
import ReflexCore
import ReflexFormats
import ReflexRuntime
import ReflexStorage
import ReflexSystem
import ReflexUI
#if canImport(Glibc)
import Glibc
#endif

/// `reflex bench review`: review's single view of a 12 MP photo the camera's encoder wrote —
/// the file read and decoded to the panel, upright (`ReviewPicture`) — beside TurboJPEG's
/// decode of the same file at the same scale alone, the floor any viewer pays.
struct ReviewBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "review", abstract: "Benchmark review: a 12 MP photo from the card to the panel's picture.")

    @Option(help: "The photo's size, WIDTHxHEIGHT.") var size = "4056x3040"
    @Option(help: "The panel's size, WIDTHxHEIGHT.") var panel = "1280x800"
    @Option(help: "Runs of each case (the median is printed).") var runs = 9
    @Option(help: "Items on the card for the index (a fifth of them RAW+JPEG pairs).") var items = 1000
    @Option(help: "Thumbnails on the index's first screen.") var cells = 24

    func run() throws {
        let photo = size.lowercased().split(separator: "x").compactMap { Int($0) }
        let screen = panel.lowercased().split(separator: "x").compactMap { Int($0) }
        guard photo.count == 2, screen.count == 2, (photo + screen).allSatisfy({ $0 >= 16 }) else {
            throw ValidationError("--size and --panel are WIDTHxHEIGHT")
        }
        let jpeg = try Self.cameraJPEG(width: photo[0], height: photo[1])
        let folder = "/tmp/reflex-bench-review-\(getpid())"
        try AtomicFile.createFolder(folder)
        defer { _ = try? ChildProcess.runUntilLine(["/bin/rm", "-rf", folder], matching: nil, timeout: 30) }
        let path = folder + "/RFLX0001.JPG"
        try AtomicFile.write(jpeg, to: path)

        var shown: ReviewPicture?
        let review = try medianSeconds(runs) {
            // (Read with the size the card's listing gave: no larger buffer to clear.)
            guard let bytes = try AtomicFile.read(path, limit: jpeg.count) else { throw BenchError("the photo went missing") }
            shown = try ReviewPicture.jpeg(bytes, fitting: screen[0], screen[1])
        }
        let fit = PixelRect(x: 0, y: 0, width: screen[0], height: screen[1]).fitting(sourceWidth: photo[0], sourceHeight: photo[1])
        let (scaledWidth, scaledHeight) = ReviewPicture.decodedSize(width: photo[0], height: photo[1], atLeast: fit.width, fit.height)
        let decode = try medianSeconds(runs) { try Self.turboDecode(jpeg, width: scaledWidth, height: scaledHeight) }
        let whole = try medianSeconds(max(runs / 3, 1)) { try Self.turboDecode(jpeg, width: photo[0], height: photo[1]) }
        print("Review: a \(photo[0])x\(photo[1]) photo (\(jpeg.count / 1000) KB, the camera's JPEG encoder) on a "
              + "\(screen[0])x\(screen[1]) panel, median of \(runs)")
        print("  the file read, decoded at \(scaledWidth)x\(scaledHeight), fitted to \(shown?.width ?? 0)x\(shown?.height ?? 0) "
              + "and turned upright: \(milliseconds(review)) (target with the flip: the play key to the photo ≤ 150 ms)")
        print("  reference: TurboJPEG's decode of the same file at \(scaledWidth)x\(scaledHeight) alone \(milliseconds(decode)); "
              + "at its whole size \(milliseconds(whole))")
        try browseRow(jpeg: jpeg, folder: folder, screen: screen)
        try ReviewRawBench(width: photo[0], height: photo[1], screen: screen, runs: runs, folder: folder).run()
        try movieRow(folder: folder, screen: screen)
        try indexRow(jpeg: path, folder: folder, screen: screen)
    }

    /// Review's thread on a card of 12 such photos, as the camera runs it: the play key to
    /// the newest photo's frame ready for the loop, the next photo (decoded ahead while the
    /// one before was looked at), a jump to one not decoded yet, a double tap to 100 % and a
    /// step of a pan there.
    private func browseRow(jpeg: [UInt8], folder: String, screen: [Int]) throws {
        let card = folder + "/browse", dcf = card + "/DCIM/100REFLX"
        try AtomicFile.createFolder(dcf)
        for index in 1...12 { try AtomicFile.write(jpeg, to: dcf + "/" + PhotoNumber(folder: 100, file: index)!.fileStem + ".JPG") }
        func shown(_ command: ReviewRequest, by reviewer: Reviewer) throws -> Double { try Self.seconds(to: command, by: reviewer) }
        var opened: [Double] = [], next: [Double] = [], jump: [Double] = [], zoomed: [Double] = [], panned: [Double] = []
        let photo = size.lowercased().split(separator: "x").compactMap { Int($0) }
        for _ in 0..<max(runs / 3, 1) {
            // (A thread of its own each time: nothing decoded before.)
            let reviewer = Reviewer(card: card, width: screen[0], height: screen[1], log: { _ in })
            guard reviewer.start() else { throw BenchError("cannot start review's thread") }
            defer { reviewer.stop() }
            opened.append(try shown(.open, by: reviewer))
            usleep(300_000)  // the neighbours decoded while the photo is looked at
            next.append(try shown(.step(1), by: reviewer))
            jump.append(try shown(.step(5), by: reviewer))
            usleep(300_000)
            var zoom = ReviewZoom(photoWidth: photo[0], photoHeight: photo[1], screenWidth: screen[0], screenHeight: screen[1])
            zoom.doubleTap(screenX: Double(screen[0]) / 3, y: Double(screen[1]) / 3)
            zoomed.append(try shown(.zoom(zoom), by: reviewer))
            zoom.drag(byScreenX: -40, y: -20)
            panned.append(try shown(.zoom(zoom), by: reviewer))
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        print("  review's thread, a card of 12: the play key to the newest photo's frame \(milliseconds(median(opened))) "
              + "(target with the flip ≤ 150 ms); the next photo \(milliseconds(median(next))) (target ≤ 100 ms); "
              + "one not decoded ahead \(milliseconds(median(jump)))")
        print("  zoom: a double tap to 100 % (the JPEG decoded again whole) \(milliseconds(median(zoomed))) (target ≤ 300 ms); "
              + "a step of a pan \(milliseconds(median(panned)))")
    }

    /// The index opened on a card of `items` items (the photo linked under each name, a pair's
    /// DNG beside one in five, the movie bench's 1080p movie as one in 25, so the card costs no
    /// space; its files are in the page cache, as a card just browsed is): the
    /// card listed (`CardCatalog`) and the first screen's thumbnails read from the files'
    /// first 64 KB (`EmbeddedThumbnail`), beside listing the folder alone.
    private func indexRow(jpeg: String, folder: String, screen: [Int]) throws {
        let card = folder + "/card", dcf = card + "/DCIM/100REFLX"
        try AtomicFile.createFolder(dcf)
        let dng = folder + "/RFLX0001.DNG", movie = folder + "/movie.mp4"
        try AtomicFile.write([UInt8](repeating: 0, count: 1024), to: dng)
        let movies = access(movie, R_OK) == 0
        for index in 1...min(max(items, 1), 9999) {
            let stem = dcf + "/" + PhotoNumber(folder: 100, file: index)!.fileStem
            // One item in 25 a movie (where the movie bench made one), one in 5 a pair.
            if movies && index % 25 == 0 {
                guard link(movie, stem + ".MP4") == 0 else { throw BenchError("cannot link the card's movie") }
                continue
            }
            guard link(jpeg, stem + ".JPG") == 0, index % 5 != 0 || link(dng, stem + ".DNG") == 0 else {
                throw BenchError("cannot link the card's files: \(String(cString: strerror(errno)))")
            }
        }
        var listed = 0, thumbnails = 0
        let open = try medianSeconds(runs) {
            let found = CardCatalog.items(onCardAt: card)
            listed = found.count
            thumbnails = 0
            for item in found.prefix(cells) {
                guard let file = item.files.first(where: { $0.kind == .jpeg }),
                      let prefix = try AtomicFile.read(dcf + "/" + file.name, limit: 65_535),
                      EmbeddedThumbnail.ofJPEG(prefix) != nil else { continue }
                thumbnails += 1
            }
        }
        let names = medianSeconds(runs) { _ = namesInFolder(dcf).count }
        print("  the index on a card of \(listed) items: listed and the first \(thumbnails) thumbnails read in "
              + "\(milliseconds(open)) (target ≤ 300 ms); reference: the folder's names alone \(milliseconds(names))")
        try indexScrollRow(card: card, screen: screen)
    }

    /// Review's thread showing the index of that card: the zoom-out key to the grid of the
    /// first screen's thumbnails, then a drag scrolling it by 8 pixels a frame for 600 frames
    /// (10 s at 60 Hz, some 25 rows): each step's frame for the loop, the slowest too (a new
    /// row's thumbnails read, if the reading ahead fell behind).
    private func indexScrollRow(card: String, screen: [Int]) throws {
        let reviewer = Reviewer(card: card, width: screen[0], height: screen[1], log: { _ in })
        guard reviewer.start() else { throw BenchError("cannot start review's thread") }
        defer { reviewer.stop() }
        func shown(_ command: ReviewRequest) throws -> Double { try Self.seconds(to: command, by: reviewer) }
        _ = try shown(.open)
        guard let count = reviewer.shownFrame?.info?.count else { throw BenchError("the card is empty") }
        let layout = ReviewLayout(ScreenLayout(width: screen[0], height: screen[1]))
        var grid = ReviewGrid(count: count, highlighted: 0, screenWidth: screen[0], top: layout.infoBar.height,
                              bottom: layout.buttonBar.y, cellTarget: layout.cellTarget)
        let opened = try shown(.grid(grid))
        var steps: [Double] = []
        for _ in 0..<600 {
            let frameStarted = monotonicSeconds()
            grid.drag(by: -8)
            steps.append(try shown(.grid(grid)))
            // The rest of the frame, as the photographer's finger moves at 60 Hz.
            let left = 1.0 / 60 - (monotonicSeconds() - frameStarted)
            if left > 0 { usleep(UInt32(left * 1_000_000)) }
        }
        let sorted = steps.sorted()
        print("  the index on its thread: the grid of \(grid.visibleItems.count) thumbnails \(milliseconds(opened)); a drag at "
              + "60 Hz through \(grid.scroll / (grid.cellHeight + grid.gap)) rows: a step's frame median "
              + "\(milliseconds(sorted[sorted.count / 2])), slowest \(milliseconds(sorted.last!)) (target: within a 16.7 ms frame)")
        try ReviewLoopBench(card: card, screen: screen, seconds: 5, activity: .indexScrolls).run()
        try memoryRow(card: card, screen: screen)
    }

    /// Review's memory on that card: resident before review opens, then after the index was
    /// scrolled through every item (a row a step, each step's thumbnails read) and 100 items
    /// were shown one at a time, with the peak meanwhile. Review's caches are bounded (48 MB of
    /// pictures, 16 MB of thumbnails), so the figure must not grow with the card.
    private func memoryRow(card: String, screen: [Int]) throws {
        PeakMemory.mark()
        let before = PeakMemory.residentBytes ?? 0
        let reviewer = Reviewer(card: card, width: screen[0], height: screen[1], log: { _ in })
        guard reviewer.start() else { throw BenchError("cannot start review's thread") }
        defer { reviewer.stop() }
        _ = try Self.seconds(to: .open, by: reviewer)
        guard let count = reviewer.shownFrame?.info?.count else { throw BenchError("the card is empty") }
        let layout = ReviewLayout(ScreenLayout(width: screen[0], height: screen[1]))
        var grid = ReviewGrid(count: count, highlighted: 0, screenWidth: screen[0], top: layout.infoBar.height,
                              bottom: layout.buttonBar.y, cellTarget: layout.cellTarget)
        _ = try Self.seconds(to: .grid(grid), by: reviewer)
        while grid.visibleItems.upperBound < count {
            grid.drag(by: -(grid.cellHeight + grid.gap))
            _ = try Self.seconds(to: .grid(grid), by: reviewer)
        }
        _ = try Self.seconds(to: .single(at: 0), by: reviewer)
        for _ in 0..<100 { _ = try Self.seconds(to: .step(1), by: reviewer) }
        let after = PeakMemory.residentBytes ?? 0, peak = PeakMemory.peakBytes ?? 0
        func megabytes(_ bytes: Int) -> String { "\(bytes >> 20) MB" }
        print("  memory: resident \(megabytes(before)) before review; after the index through all \(count) items and 100 "
              + "photos one at a time \(megabytes(after)), peak \(megabytes(peak)) (review's caches: 48 MB of pictures, "
              + "16 MB of thumbnails)")
    }

    /// A 1080p30 movie with sound as a camera writes it (fragmented MP4, H.264 and AAC; made by
    /// the ffmpeg program, skipped without it), played through `MoviePlayer` as fast as it
    /// decodes: every picture fitted to the panel and the sound converted, on one core,
    /// beside the ffmpeg program decoding the same file on one thread. Faster than 30 a second
    /// is a movie played without a dropped picture.
    private func movieRow(folder: String, screen: [Int]) throws {
        let path = folder + "/movie.mp4"
        let made = try? ChildProcess.runUntilLine(
            ["/usr/bin/ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=30", "-f", "lavfi", "-i",
             "sine=frequency=1000:sample_rate=48000", "-t", "5", "-c:v", "libx264", "-preset", "veryfast", "-g", "30",
             "-pix_fmt", "yuv420p", "-c:a", "aac", "-movflags", "+frag_keyframe+empty_moov", "-y", path],
            matching: nil, timeout: 120)
        guard made != nil, access(path, R_OK) == 0 else {
            print("  movie playback: skipped (no ffmpeg program to make the movie)")
            return
        }
        var pictures = 0
        let played = try medianSeconds(max(runs / 3, 1)) {
            let player = try MoviePlayer(path: path, fitting: screen[0], screen[1])
            pictures = 0
            while player.nextPicture() {
                pictures += 1
                _ = player.takeSound()
            }
        }
        let reference = medianSeconds(max(runs / 3, 1)) {
            _ = try? ChildProcess.runUntilLine(["/usr/bin/ffmpeg", "-v", "error", "-threads", "1", "-i", path, "-f", "null", "-"],
                                               matching: nil, timeout: 120)
        }
        print("  movie playback, 5 s of 1080p30 with sound: \(pictures) pictures decoded and fitted at "
              + "\(Formatting.fixed(Double(pictures) / played, 0, width: 0)) a second (real time: 30); reference: the ffmpeg "
              + "program decoding the file on one thread, \(Formatting.fixed(Double(pictures) / reference, 0, width: 0)) a second")
        // The same movie on a card, played by review while the loop runs.
        let card = folder + "/movie-card", dcf = card + "/DCIM/100REFLX"
        try AtomicFile.createFolder(dcf)
        guard link(path, dcf + "/RFLX0001.MP4") == 0 else { throw BenchError("cannot put the movie on the card") }
        try ReviewLoopBench(card: card, screen: screen, seconds: 5.5).run()
    }

    /// Seconds from `command` to its frame, ready for the loop (polled every 50 µs).
    static func seconds(to command: ReviewRequest, by reviewer: Reviewer) throws -> Double {
        let started = monotonicSeconds()
        reviewer.send(command)
        while reviewer.newestFrame() == nil {
            guard monotonicSeconds() - started < 30 else { throw BenchError("review's thread did not answer") }
            usleep(50)
        }
        return monotonicSeconds() - started
    }

    /// A photo as the camera writes it: a picture with detail everywhere (so it compresses as
    /// a real one does), through the camera's JPEG encoder with its EXIF.
    static func cameraJPEG(width: Int, height: Int) throws -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                let texture = ((x / 3 + y / 5) % 7) * 9
                pixels[i] = UInt8(truncatingIfNeeded: 40 + x * 160 / width + texture)
                pixels[i + 1] = UInt8(truncatingIfNeeded: 60 + y * 120 / height + texture)
                pixels[i + 2] = UInt8(truncatingIfNeeded: 90 + (x ^ y) % 50)
            }
        }
        return try pixels.withUnsafeBufferPointer {
            try JPEGEncoder.encode(RGBImage(pixels: $0.baseAddress!, width: width, height: height), photo: PhotoFileBench.photo)
        }
    }

    static func turboDecode(_ jpeg: [UInt8], width: Int, height: Int) throws {
        guard let handle = tjInitDecompress() else { throw BenchError("cannot start TurboJPEG") }
        defer { tjDestroy(handle) }
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        guard tjDecompress2(handle, jpeg, UInt(jpeg.count), &rgb, Int32(width), 0, Int32(height), Int32(TJPF_RGB.rawValue),
                            Int32(TJFLAG_FASTDCT)) == 0 else { throw BenchError("TurboJPEG cannot decode the photo") }
    }
}
