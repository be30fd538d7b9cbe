import ReflexCore
import ReflexFormats
import ReflexHardware
import ReflexISP
import ReflexStorage
import ReflexSystem
import ReflexTestSupport
import ReflexUI
import Testing
@testable import ReflexRuntime
#if canImport(Glibc)
import Glibc
#endif

/// Review through the realtime loop on the headless display, with the real review thread on a
/// card folder (issue 34): the play key shows the newest photo full screen, the arrow keys go
/// to older ones, delete removes the item from the card once confirmed, the shutter's half
/// press gives the viewfinder back at once; the loop's frames allocate nothing for any of it.
@Suite("Review on the screen")
struct ReviewScreenTests {
    typealias Rig = InterfacePainterTests.Rig

    /// A card with three photos, newest last: 0001 red, 0002 green (with a DNG beside it: a
    /// pair), 0003 blue.
    static func card() throws -> TemporaryFolder {
        let card = TemporaryFolder()
        let folder = card.path + "/DCIM/100REFLX"
        try AtomicFile.createFolder(folder)
        for (number, colour) in [(1, (220, 30, 30)), (2, (30, 200, 40)), (3, (30, 40, 210))] as [(Int, (UInt8, UInt8, UInt8))] {
            var rgb = [UInt8](repeating: 0, count: 320 * 240 * 3)
            for index in stride(from: 0, to: rgb.count, by: 3) { (rgb[index], rgb[index + 1], rgb[index + 2]) = colour }
            let jpeg = try rgb.withUnsafeBufferPointer {
                try JPEGEncoder.encode(RGBImage(pixels: $0.baseAddress!, width: 320, height: 240), photo: Self.photo)
            }
            try AtomicFile.write(jpeg, to: folder + "/RFLX000\(number).JPG")
        }
        try AtomicFile.write([UInt8](repeating: 0, count: 512), to: folder + "/RFLX0002.DNG")
        return card
    }

    static let photo = PhotoDescription(make: "Reflex", model: "Test", software: "Reflex test", exposureSeconds: 1.0 / 125,
                                        iso: 400, fNumber: 2.8, focalLengthMillimetres: 4.4,
                                        captured: PhotoTime(year: 2026, month: 11, day: 26, hour: 10, minute: 11, second: 12))

    /// The panel's pixel in the middle, as (red, green, blue).
    static func middle(_ rig: Rig) -> (Int, Int, Int) {
        let pixel = rig.display.frontPixels[rig.display.height / 2 * rig.display.width + rig.display.width / 2]
        return (Int(pixel >> 16 & 0xFF), Int(pixel >> 8 & 0xFF), Int(pixel & 0xFF))
    }

    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    static func press(_ rig: Rig, _ code: UInt32) {
        rig.loop.inject(.key(code: code, pressed: true), at: rig.clock.now)
        rig.loop.inject(.key(code: code, pressed: false), at: rig.clock.now)
    }

    @Test func playShowsTheNewestAndTheKeysGoThroughTheCard() throws {
        let card = try Self.card()
        let reviewer = Reviewer(card: card.path, width: 1280, height: 800, log: { _ in })
        let rig = try Rig(reviewer: reviewer)
        #expect(rig.loop.startPainter() && reviewer.start())
        defer { rig.loop.stop(); reviewer.stop() }
        rig.run(frames: 5)
        let live = Self.middle(rig)
        let allocationsBefore = rig.loop.statistics.ring.summary().allocations

        Self.press(rig, KeyCode.play)
        let blue = rig.run(until: { let (r, g, b) = Self.middle(rig); return b > 150 && r < 80 && g < 80 }, frames: 30)
        #expect(blue, "the newest photo (blue) fills the screen: \(Self.middle(rig))")
        let info = rig.loop.shownState.review?.info
        #expect(info?.number == "100-0003" && info?.position == 1 && info?.count == 3 && info?.format == "JPEG")
        #expect(info?.exposure == "ISO 400   1/125   f/2.8" && info?.taken == "2026-11-26 10:11:12")

        Self.press(rig, 106)  // KEY_RIGHT: the next older
        let green = rig.run(until: { let (r, g, b) = Self.middle(rig); return g > 150 && r < 80 && b < 80 }, frames: 30)
        #expect(green && rig.loop.shownState.review?.info?.format == "RAW+JPEG", "the pair, one item")
        #expect(rig.loop.statistics.ring.summary().allocations == allocationsBefore, "the loop's frames allocated in review")

        // Delete, answered: both files of the pair go, and the next older (red) shows.
        Self.press(rig, KeyCode.delete)
        rig.run(frames: 2)
        #expect(rig.loop.shownState.review?.confirmingDelete == true)
        Self.press(rig, 28)  // KEY_ENTER on the highlighted answer: Cancel
        rig.run(frames: 2)
        #expect(Self.exists(card.path + "/DCIM/100REFLX/RFLX0002.JPG"), "Cancel deletes nothing")
        Self.press(rig, KeyCode.delete)
        Self.press(rig, 106)  // to Delete
        Self.press(rig, 28)
        let red = rig.run(until: { let (r, g, b) = Self.middle(rig); return r > 150 && g < 80 && b < 80 }, frames: 30)
        #expect(red && rig.loop.shownState.review?.info?.count == 2)
        #expect(!Self.exists(card.path + "/DCIM/100REFLX/RFLX0002.JPG")
                && !Self.exists(card.path + "/DCIM/100REFLX/RFLX0002.DNG"))

        // A half press: the viewfinder at once (the next frame is the sensor's).
        rig.loop.inject(.key(code: KeyCode.cameraFocus, pressed: true), at: rig.clock.now)
        rig.run(frames: 1)
        #expect(rig.loop.shownState.review == nil && Self.middle(rig) == live && rig.loop.shownState.exposureLocked)
    }

    /// Zoomed to 100 %, the screen shows the file's own pixels: a photo of one-pixel stripes,
    /// grey when fitted (averaged), is stripes again at 100 %, decoded from the file (an
    /// upscaled screen image would stay grey).
    @Test func theZoomShowsTheFilesOwnPixels() throws {
        let card = TemporaryFolder()
        let folder = card.path + "/DCIM/100REFLX"
        try AtomicFile.createFolder(folder)
        let (width, height) = (2560, 1920)
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for index in 0..<(width * height) where index % 2 == 0 { (rgb[index * 3], rgb[index * 3 + 1], rgb[index * 3 + 2]) = (255, 255, 255) }
        let jpeg = try rgb.withUnsafeBufferPointer {
            try JPEGEncoder.encode(RGBImage(pixels: $0.baseAddress!, width: width, height: height), quality: 98, photo: Self.photo)
        }
        try AtomicFile.write(jpeg, to: folder + "/RFLX0001.JPG")
        let reviewer = Reviewer(card: card.path, width: 1280, height: 800, log: { _ in })
        let rig = try Rig(reviewer: reviewer)
        #expect(rig.loop.startPainter() && reviewer.start())
        defer { rig.loop.stop(); reviewer.stop() }
        /// The largest step between neighbouring pixels along the screen's middle row.
        func contrast() -> Int {
            let row = rig.display.frontPixels + rig.display.height / 2 * rig.display.width
            return (500..<780).map { abs(Int(row[$0] & 0xFF) - Int(row[$0 + 1] & 0xFF)) }.max() ?? 0
        }
        Self.press(rig, KeyCode.play)
        let shown = rig.run(until: { rig.loop.shownState.review?.info?.photoWidth == width }, frames: 30)
        rig.run(frames: 2)
        #expect(shown && contrast() < 40, "fitted, the stripes average to grey: \(contrast())")
        let allocationsBefore = rig.loop.statistics.ring.summary().allocations
        // The second dial: 50 %, then 100 %.
        rig.loop.inject(.wheel(wheel: 1, v120: 240), at: rig.clock.now)
        let detailed = rig.run(until: { contrast() > 150 }, frames: 30)
        #expect(detailed && rig.loop.shownState.review?.zoom?.scale == 1, "100 %: the file's stripes: \(contrast())")
        #expect(rig.loop.statistics.ring.summary().allocations == allocationsBefore, "the loop's frames allocated for the zoom")
    }

    /// A file changed while review was closed (on a computer, or another card with the same
    /// names put in) is read again at the next opening: closing lets the decoded pictures go.
    @Test func aFileChangedWhileClosedIsReadAgain() throws {
        let card = TemporaryFolder()
        let folder = card.path + "/DCIM/100REFLX"
        try AtomicFile.createFolder(folder)
        func write(_ colour: (UInt8, UInt8, UInt8), quality: Int, modified: Int) throws {
            var rgb = [UInt8](repeating: 0, count: 320 * 240 * 3)
            for index in stride(from: 0, to: rgb.count, by: 3) { (rgb[index], rgb[index + 1], rgb[index + 2]) = colour }
            let jpeg = try rgb.withUnsafeBufferPointer {
                try JPEGEncoder.encode(RGBImage(pixels: $0.baseAddress!, width: 320, height: 240), quality: quality, photo: Self.photo)
            }
            try AtomicFile.write(jpeg, to: folder + "/RFLX0001.JPG")
            var times = [timespec(tv_sec: modified, tv_nsec: 0), timespec(tv_sec: modified, tv_nsec: 0)]
            #expect(utimensat(AT_FDCWD, folder + "/RFLX0001.JPG", &times, 0) == 0)
        }
        try write((220, 30, 30), quality: 90, modified: 1_700_000_000)
        let reviewer = Reviewer(card: card.path, width: 1280, height: 800, log: { _ in })
        let rig = try Rig(reviewer: reviewer)
        #expect(rig.loop.startPainter() && reviewer.start())
        defer { rig.loop.stop(); reviewer.stop() }
        Self.press(rig, KeyCode.play)
        #expect(rig.run(until: { Self.middle(rig).0 > 150 && Self.middle(rig).2 < 80 }, frames: 30), "red: \(Self.middle(rig))")
        Self.press(rig, KeyCode.play)
        #expect(rig.run(until: { rig.loop.shownState.review == nil }, frames: 30), "closed")
        try write((30, 40, 210), quality: 80, modified: 1_700_000_100)
        Self.press(rig, KeyCode.play)
        #expect(rig.run(until: { Self.middle(rig).2 > 150 && Self.middle(rig).0 < 80 }, frames: 30), "blue now: \(Self.middle(rig))")
    }

    /// A RAW alone: its DNG's raw developed by the still pipeline, not its small preview (the
    /// preview is blue, the raw red), and the zoom at 100 % shows the sensor's own stripes, 8
    /// pixels wide.
    @Test func aRawAloneIsDevelopedAndZoomsToTheSensorsPixels() throws {
        let card = TemporaryFolder()
        let folder = card.path + "/DCIM/100REFLX"
        try AtomicFile.createFolder(folder)
        let (width, height) = (2560, 1920)
        let samples = (0..<(width * height)).map { index -> UInt16 in
            let (x, y) = (index % width, index / width)
            let red = y % 2 == 0 && x % 2 == 0
            return x / 8 % 2 == 1 ? 64 : red ? 3000 : 300
        }
        let layout = RawLayout(width: width, height: height, format: RawFormat(cfa: .rggb, bitsPerSample: 12, packing: .unpacked16))
        let description = RawDescription(uniqueCameraModel: "Reflex Test", blackLevels: [64, 64, 64, 64], whiteLevel: 4095,
                                         calibrations: [ColourCalibrationSet(illuminant: .d65, colorMatrix: .sRGBFromXYZ)],
                                         asShotNeutral: SIMD3(1, 1, 1))
        let blue = [UInt8]((0..<(256 * 192)).flatMap { _ in [20, 30, 220] as [UInt8] })
        let dng = try samples.withUnsafeBytes { raw in
            try blue.withUnsafeBufferPointer { preview in
                try DNGEncoder.encode(raw: raw.baseAddress!, layout: layout, photo: Self.photo, rawDescription: description,
                                      preview: RGBImage(pixels: preview.baseAddress!, width: 256, height: 192),
                                      compression: .losslessJPEG)
            }
        }
        try AtomicFile.write(dng, to: folder + "/RFLX0001.DNG")
        let reviewer = Reviewer(card: card.path, width: 1280, height: 800, log: { _ in })
        let rig = try Rig(reviewer: reviewer)
        #expect(rig.loop.startPainter() && reviewer.start())
        defer { rig.loop.stop(); reviewer.stop() }
        /// The longest run of bright pixels along the screen's middle row, and the brightest.
        func stripes() -> (run: Int, red: Int, blue: Int) {
            let row = rig.display.frontPixels + rig.display.height / 2 * rig.display.width
            var (longest, run, red, blue) = (0, 0, 0, 0)
            for x in 400..<880 {
                let bright = Int(row[x] >> 16 & 0xFF) > 100
                run = bright ? run + 1 : 0
                longest = max(longest, run)
                red = max(red, Int(row[x] >> 16 & 0xFF))
                blue = max(blue, Int(row[x] & 0xFF))
            }
            return (longest, red, blue)
        }
        Self.press(rig, KeyCode.play)
        let shown = rig.run(until: { rig.loop.shownState.review?.info?.photoWidth == width }, frames: 60)
        rig.run(frames: 2)
        let fitted = stripes()
        #expect(shown && rig.loop.shownState.review?.info?.format == "RAW", "the RAW, sized as its sensor")
        #expect(fitted.red > 150 && fitted.blue < 100 && fitted.run < 6, "the raw developed, fitted: \(fitted)")
        // The second dial: 50 %, then 100 %.
        rig.loop.inject(.wheel(wheel: 1, v120: 240), at: rig.clock.now)
        let detailed = rig.run(until: { stripes().run >= 8 }, frames: 60)
        #expect(detailed && rig.loop.shownState.review?.zoom?.scale == 1 && stripes().run <= 9,
                "100 %: the sensor's 8-pixel stripes: \(stripes())")
    }

    /// The index: fourteen photos, each its own colour; the zoom-out key shows them as a grid
    /// from their EXIF thumbnails, newest first, the highlight on the one shown, a badge on the
    /// RAW+JPEG pair (12) and a padlock on the protected one (13); the arrow moves it and Enter
    /// opens that photo alone.
    @Test func theIndexShowsTheCardsThumbnails() throws {
        let card = TemporaryFolder()
        let folder = card.path + "/DCIM/100REFLX"
        try AtomicFile.createFolder(folder)
        func colour(_ number: Int) -> (UInt8, UInt8, UInt8) { (UInt8(number * 17), UInt8(255 - number * 17), UInt8(number % 2 * 200)) }
        for number in 1...14 {
            var rgb = [UInt8](repeating: 0, count: 320 * 240 * 3)
            let (r, g, b) = colour(number)
            for index in stride(from: 0, to: rgb.count, by: 3) { (rgb[index], rgb[index + 1], rgb[index + 2]) = (r, g, b) }
            let jpeg = try rgb.withUnsafeBufferPointer {
                try JPEGEncoder.encode(RGBImage(pixels: $0.baseAddress!, width: 320, height: 240), photo: Self.photo)
            }
            try AtomicFile.write(jpeg, to: folder + "/" + PhotoNumber(folder: 100, file: number)!.fileStem + ".JPG")
        }
        try AtomicFile.write([UInt8](repeating: 0, count: 512), to: folder + "/RFLX0012.DNG")
        #expect(chmod(folder + "/RFLX0013.JPG", 0o444) == 0)
        let badges = IndexBadges(fonts: try FontLibrary(folder: InterfacePainterTests.repository + "/Fonts"), scale: 1)
        let reviewer = Reviewer(card: card.path, width: 1280, height: 800, badges: badges, log: { _ in })
        let rig = try Rig(reviewer: reviewer)
        #expect(rig.loop.startPainter() && reviewer.start())
        defer { rig.loop.stop(); reviewer.stop() }
        Self.press(rig, KeyCode.play)
        #expect(rig.run(until: { rig.loop.shownState.review?.info?.number == "100-0014" }, frames: 30))
        let allocationsBefore = rig.loop.statistics.ring.summary().allocations
        Self.press(rig, KeyCode.zoomOut)
        #expect(rig.run(until: { rig.loop.shownState.review?.grid != nil }, frames: 30))
        rig.run(frames: 3)
        let review = ReviewLayout(ScreenLayout(width: 1280, height: 800))
        let grid = ReviewGrid(count: 14, highlighted: 0, screenWidth: 1280, top: review.infoBar.height, bottom: review.buttonBar.y,
                              cellTarget: review.cellTarget)
        func pixel(_ x: Int, _ y: Int) -> (Int, Int, Int) {
            let value = rig.display.frontPixels[y * 1280 + x]
            return (Int(value >> 16 & 0xFF), Int(value >> 8 & 0xFF), Int(value & 0xFF))
        }
        func close(_ a: (Int, Int, Int), _ b: (UInt8, UInt8, UInt8)) -> Bool {
            abs(a.0 - Int(b.0)) < 24 && abs(a.1 - Int(b.1)) < 24 && abs(a.2 - Int(b.2)) < 24
        }
        for index in [0, 1, 7, 13] {
            let cell = grid.cell(index)
            let seen = pixel(cell.x + cell.width / 2, cell.y + cell.height / 2)
            #expect(close(seen, colour(14 - index)), "cell \(index) shows photo \(14 - index): \(seen)")
        }
        let first = grid.cell(0)
        #expect(pixel(first.x + first.width / 2, first.y - 2) == (255, 179, 0), "the highlight's frame round the newest")
        // The badges: dark under the pair's label where a JPEG alone shows its photo; the
        // padlock's amber in the protected one's corner.
        let label = badges.size(of: .rawAndJPEG)
        func underLabel(_ index: Int) -> (Int, Int, Int) {
            let cell = grid.cell(index)
            return pixel(cell.x + badges.inset + 2, cell.y + cell.height - badges.inset - label.height / 2)
        }
        #expect(close(underLabel(0), colour(14)) && !close(underLabel(2), colour(12)), "a badge on the pair alone")
        let locked = grid.cell(1), lock = badges.size(of: .locked)
        let corner = (0..<lock.height).flatMap { dy in
            (0..<lock.width).map { dx in pixel(locked.x + locked.width - badges.inset - lock.width + dx, locked.y + badges.inset + dy) }
        }
        #expect(corner.contains { close($0, (255, 179, 0)) }, "the padlock on the protected photo")
        let open = grid.cell(3)
        #expect(!(0..<lock.height).contains { dy in
            close(pixel(open.x + open.width - badges.inset - lock.width / 2, open.y + badges.inset + dy), (255, 179, 0))
        }, "none on the others")
        // The whole index under the details bar (whose date is the files' own, made now).
        let golden = GoldenImage.compare("review-index", pixels: rig.display.frontPixels + review.infoBar.height * 1280, width: 1280,
                                         height: 800 - review.infoBar.height, stride: 1280)
        #expect(golden.matches, "\(golden)")
        Self.press(rig, 106)
        #expect(rig.run(until: { rig.loop.shownState.review?.info?.number == "100-0013" }, frames: 30), "the arrow moved it")
        Self.press(rig, 28)
        let opened = rig.run(until: { rig.loop.shownState.review?.grid == nil && close(Self.middle(rig), colour(13)) }, frames: 30)
        #expect(opened, "Enter: photo 13 alone: \(Self.middle(rig))")
        #expect(rig.loop.statistics.ring.summary().allocations == allocationsBefore, "the loop's frames allocated in the index")
    }

    /// A movie: its first picture and length; Enter plays it (the pictures move on in time,
    /// the overlay's time with them) to its end, where it stops; the loop's frames allocate
    /// nothing while it plays. (Its clock is the real one: the test waits as it plays.)
    @Test(.tags(.externalTool)) func aMoviePlaysToItsEnd() throws {
        let card = TemporaryFolder()
        let folder = card.path + "/DCIM/100REFLX"
        try AtomicFile.createFolder(folder)
        let made = try ProgramRun(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc=size=320x180:rate=30", "-f", "lavfi",
                                         "-i", "sine=frequency=440:sample_rate=48000", "-t", "2", "-c:v", "libx264", "-pix_fmt",
                                         "yuv420p", "-c:a", "aac", "-movflags", "+frag_keyframe+empty_moov",
                                         folder + "/RFLX0001.MP4"])
        #expect(made.status == 0, "\(made.errors)")
        // The movie's pictures come on the rig's clock, as the loop's frames do.
        let clock = ManualClock()
        let reviewer = Reviewer(card: card.path, width: 1280, height: 800, clock: .manual(clock), log: { _ in })
        let rig = try Rig(reviewer: reviewer, clock: clock)
        #expect(rig.loop.startPainter() && reviewer.start())
        defer { rig.loop.stop(); reviewer.stop() }
        Self.press(rig, KeyCode.play)
        #expect(rig.run(until: { rig.loop.shownState.review?.info?.movieLength == "0:02" }, frames: 30), "the poster and its length")
        let poster = Self.middle(rig)
        let allocationsBefore = rig.loop.statistics.ring.summary().allocations
        Self.press(rig, 28)
        func progress() -> MovieProgress? { rig.loop.shownState.review?.info?.progress }
        /// Frames run (a 60th of a second each on the rig's clock) until `condition` holds, for
        /// as long as the 2 s movie and a second more.
        func played(until condition: () -> Bool) -> Bool { rig.run(until: condition, frames: 180) }
        let started = clock.now
        let playing = played { (progress()?.tenths ?? 0) >= 5 && progress()?.playing == true }
        #expect(playing && clock.now - started < 0.6, "half a second in, on time: \(String(describing: progress()))")
        // (testsrc's gradient scrolls and its counter counts: the picture changes every frame.)
        var seen = Set<Int>()
        let moved = played {
            var sum = 0
            for y in stride(from: 100, to: 700, by: 7) {
                for x in stride(from: 0, to: 1280, by: 5) { sum = sum &* 31 &+ Int(rig.display.frontPixels[y * 1280 + x]) }
            }
            seen.insert(sum)
            return seen.count >= 3
        }
        #expect(moved, "the pictures move on (the poster's middle: \(poster))")
        let ended = played { progress()?.playing == false }
        #expect(ended && (progress()?.tenths ?? 0) >= 19, "stopped at its end: \(String(describing: progress()))")
        #expect(clock.now - started < 2.2, "the movie took its own length: \(clock.now - started) s")
        #expect(rig.loop.statistics.ring.summary().allocations == allocationsBefore, "the loop's frames allocated while it played")
    }

    /// A JPEG cut short and a movie of garbage among good photos: each says "Cannot show this
    /// file" in its place and review goes on to the next.
    @Test func aDamagedFileIsSaidAndReviewGoesOn() throws {
        let card = try Self.card()
        let folder = card.path + "/DCIM/100REFLX"
        let whole = try TemporaryFolder.read(folder + "/RFLX0003.JPG")
        try AtomicFile.write(Array(whole.prefix(whole.count / 3)), to: folder + "/RFLX0004.JPG")
        try AtomicFile.write([UInt8](repeating: 0x5A, count: 4096), to: folder + "/RFLX0005.MP4")
        let reviewer = Reviewer(card: card.path, width: 1280, height: 800, log: { _ in })
        let rig = try Rig(reviewer: reviewer)
        #expect(rig.loop.startPainter() && reviewer.start())
        defer { rig.loop.stop(); reviewer.stop() }
        Self.press(rig, KeyCode.play)
        let movie = rig.run(until: { rig.loop.shownState.review?.info?.number == "100-0005" }, frames: 30)
        #expect(movie && rig.loop.shownState.review?.info?.problem == InterfaceText.cannotShowFile, "the garbage movie")
        Self.press(rig, 106)
        let cut = rig.run(until: { rig.loop.shownState.review?.info?.number == "100-0004" }, frames: 30)
        #expect(cut && rig.loop.shownState.review?.info?.problem == InterfaceText.cannotShowFile, "the JPEG cut short")
        Self.press(rig, 106)
        let blue = rig.run(until: { let (r, g, b) = Self.middle(rig); return b > 150 && r < 80 && g < 80 }, frames: 30)
        #expect(blue && rig.loop.shownState.review?.info?.problem == nil, "the next photo as ever")
    }

    @Test func anEmptyCardSaysSo() throws {
        let card = TemporaryFolder()
        let reviewer = Reviewer(card: card.path, width: 1280, height: 800, log: { _ in })
        let rig = try Rig(reviewer: reviewer)
        #expect(rig.loop.startPainter() && reviewer.start())
        defer { rig.loop.stop(); reviewer.stop() }
        Self.press(rig, KeyCode.play)
        let said = rig.run(until: { rig.loop.shownState.review?.cardIsEmpty == true }, frames: 30)
        let above = rig.display.frontPixels[200 * rig.display.width + 640] & 0xFF_FFFF
        #expect(said && above == 0, "black where a picture would be, the message in the middle")
        Self.press(rig, 106)
        rig.run(frames: 2)
        #expect(rig.loop.shownState.review?.info == nil)
    }
}

