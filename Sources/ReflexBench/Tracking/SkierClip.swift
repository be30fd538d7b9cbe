import ReflexCore
import ReflexFormats
import ReflexHardware
import ReflexISP
import ReflexStorage
import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// The test clip auto-zoom is measured on: a skier on a snowy slope, 16 s at 30 fps, 1280x720,
/// whose true box the generator knows for every frame (`skier.csv`). The skier is a real
/// person: a walker of OpenCV's vtest.avi (Tests/Data/people/vtest-0100-6s.mp4) cut out by
/// background subtraction (the median of the clip's frames is its empty scene). The skier
/// crosses the frame fast, going away until small, passes behind a signboard (hidden about
/// half a second), comes back growing three and a half times larger (nearer), crosses another
/// person who hides it, and slows down near the camera.
/// Written with the camera's own H.264 encoder and MP4 writer.
///
/// A second course, `standing`, has the same skier standing on the slope, swaying a little:
/// what a detector seconds apart (the QEMU board's, under TCG) can frame, so the system test
/// holds the movie's framing without depending on when its few detections fall. A third,
/// `crowd`, is the slope's run past two larger people standing still at the sides: the
/// camera must follow the one moving, not those standing by. A fourth, `pair`, is the
/// QEMU board's version of it: the skier walking slowly to and fro (seconds between
/// detections still see them move) beside a larger person standing still, whom the size
/// rule alone would choose.
public enum SkierClip {
    public static let width = 1280, height = 720, framesPerSecond = 30
    /// 16 s of the course.
    public static let frameCount = 480

    public enum Course: String, CaseIterable, Sendable {
        /// Across, away, behind the board, back, past another person (`frameCount` frames).
        case slope
        /// Standing a third of the frame high, swaying; 8 s that loop without a jump.
        case standing
        /// The slope's run (without its passer-by) behind two people standing still.
        case crowd
        /// Walking to and fro a third of the frame high, beside a larger person standing
        /// still; 8 s that loop without a jump.
        case pair

        public var frameCount: Int {
            switch self {
            case .slope, .crowd: SkierClip.frameCount
            case .standing, .pair: 240
            }
        }
    }
    public static let fileName = "skier.mp4", truthName = "skier.csv"
    /// The walker cut out: vtest frame 100, the man on the right (x, y, width, height).
    static let sourceBox = PixelRect(x: 580, y: 146, width: 48, height: 96)
    /// The signboard the skier passes behind (fractions of the frame).
    static let board = FractionalBox(x: 0.36, y: 0.3, width: 0.1, height: 0.48)

    /// Where the skier is at `time` on `course`: centre and height (fractions of the frame),
    /// facing right.
    static func skier(at time: Double, on course: Course = .slope) -> (x: Double, y: Double, height: Double, right: Bool) {
        if course == .standing {
            // (One sway a loop: the last frame leads back into the first.)
            let sway = sin(2 * Double.pi * time / (Double(course.frameCount) / Double(framesPerSecond)))
            return (0.58 + 0.03 * sway, 0.6, 0.3, true)
        }
        if course == .pair {
            // (Right of the signboard, so the board stays in a framed picture: the system
            // test measures the framing by it.)
            let phase = 2 * Double.pi * time / (Double(course.frameCount) / Double(framesPerSecond))
            return (0.635 + 0.085 * sin(phase), 0.6, 0.3, cos(phase) >= 0)
        }
        switch time {
        case ..<4:
            // Fast across the frame and away, shrinking to a small figure; behind the board
            // from about 1.4 to 1.9 s.
            return (0.08 + 0.19 * time, 0.52 + 0.02 * sin(time * 3), 0.32 * pow(0.375, time / 4), true)
        case ..<8:
            // Back, growing as it comes nearer (about half a doubling a second), crossing the
            // other person at about 6.7 s.
            let p = (time - 4) / 4
            return (0.84 - 0.28 * p, 0.52 + 0.12 * p, 0.12 * pow(3.5, p), false)
        default:
            let p = (time - 8) / 8
            return (0.56 + 0.08 * p, 0.64, 0.42, true)
        }
    }

    /// The other person, who crosses the skier's way from 4.8 to 7.6 s.
    static func passerBy(at time: Double, on course: Course = .slope) -> (x: Double, y: Double, height: Double)? {
        guard course == .slope && time >= 4.8 && time < 7.6 else { return nil }
        let p = (time - 4.8) / 2.8
        return (0.18 + 0.7 * p, 0.6, 0.27)
    }

    /// The people standing still by the middle on `course`: centre and height, as `skier`.
    static func standingBy(on course: Course) -> [(x: Double, y: Double, height: Double)] {
        switch course {
        case .crowd: [(0.2, 0.56, 0.48), (0.92, 0.57, 0.42)]
        case .pair: [(0.18, 0.57, 0.42)]
        case .slope, .standing: []
        }
    }

    /// The skier's true box in frame `index`, in pixels.
    public static func truth(frame index: Int, cutOutAspect: Double, on course: Course = .slope) -> PixelRect {
        let place = skier(at: Double(index) / Double(framesPerSecond), on: course)
        let h = place.height * Double(height), w = h * cutOutAspect
        return PixelRect(x: Int((place.x * Double(width) - w / 2).rounded()), y: Int((place.y * Double(height) - h / 2).rounded()),
                         width: Int(w.rounded()), height: Int(h.rounded()))
    }

    /// Makes `folder`/skier.mp4 and skier.csv of `course` from the vtest clip at `source`; the
    /// truth boxes.
    @discardableResult
    public static func make(source: String, into folder: String, course: Course = .slope) throws -> [PixelRect] {
        let person = try cutOut(from: source)
        let aspect = person.aspect
        let scenery = slope()
        var picture = [UInt32](repeating: 0, count: width * height)
        let clip = try ClipWriter(folder: folder, width: width, height: height, framesPerSecond: framesPerSecond)
        func paste(_ box: PixelRect, mirrored: Bool, tinted: Bool) {
            person.paste(into: &picture, pictureWidth: width, pictureHeight: height, box: box, mirrored: mirrored, tinted: tinted)
        }
        for index in 0..<course.frameCount {
            let time = Double(index) / Double(framesPerSecond)
            picture.withUnsafeMutableBufferPointer { _ = $0.update(fromContentsOf: scenery) }
            let skierPlace = skier(at: time, on: course)
            let truth = truth(frame: index, cutOutAspect: aspect, on: course)
            // (Those standing by are behind the skier's path: the truth is never hidden by them.)
            for still in standingBy(on: course) {
                let h = still.height * Double(height), w = h * aspect
                paste(PixelRect(x: Int(still.x * Double(width) - w / 2), y: Int(still.y * Double(height) - h / 2),
                                width: Int(w), height: Int(h)), mirrored: still.x > 0.5, tinted: true)
            }
            paste(truth, mirrored: !skierPlace.right, tinted: false)
            if let other = passerBy(at: time, on: course) {
                let h = other.height * Double(height), w = h * aspect
                paste(PixelRect(x: Int(other.x * Double(width) - w / 2), y: Int(other.y * Double(height) - h / 2),
                                width: Int(w), height: Int(h)), mirrored: false, tinted: true)
            }
            drawBoard(into: &picture)
            try clip.add(picture, truth: truth)
        }
        try clip.finish()
        return clip.truths
    }

    /// The walker of `sourceBox` in the clip's first picture, cut from the scene behind him
    /// (the per-pixel median of every fourth picture).
    static func cutOut(from source: String) throws -> PersonCutOut {
        let video = try VideoPictures(path: source)
        let first = video.pictures[0]
        let sample = video.sample
        let box = sourceBox, w = video.width
        var mask = [Bool](repeating: false, count: box.width * box.height)
        for y in 0..<box.height {
            for x in 0..<box.width {
                var difference = 0
                for channel in 0..<3 {
                    let index = ((box.y + y) * w + box.x + x) * 3 + channel
                    let values = sample.map { Int($0[index]) }.sorted()
                    difference = max(difference, abs(Int(first[index]) - values[values.count / 2]))
                }
                mask[y * box.width + x] = difference > 32
            }
        }
        // A pixel stays if most of its neighbours are the person too (no specks).
        func kept(_ x: Int, _ y: Int) -> Bool {
            var count = 0
            for dy in -1...1 { for dx in -1...1 {
                let nx = x + dx, ny = y + dy
                if nx >= 0 && ny >= 0 && nx < box.width && ny < box.height && mask[ny * box.width + nx] { count += 1 }
            } }
            return count >= 5
        }
        var filtered = [Bool](repeating: false, count: mask.count)
        for y in 0..<box.height { for x in 0..<box.width where kept(x, y) { filtered[y * box.width + x] = true } }
        // The person is the largest piece (a speck of someone else's is not).
        let clean = PersonCutOut.largestPiece(of: filtered, width: box.width, height: box.height)
        var boxPixels = [UInt8](repeating: 0, count: box.width * box.height * 3)
        for y in 0..<box.height { for x in 0..<box.width { for channel in 0..<3 {
            boxPixels[(y * box.width + x) * 3 + channel] = first[((box.y + y) * w + box.x + x) * 3 + channel]
        } } }
        guard let person = PersonCutOut(rgb: boxPixels, mask: clean, maskWidth: box.width) else {
            throw BenchError("no person found at \(box) in \(source)")
        }
        return person
    }

    /// The slope: a pale sky, snow shading from bright to blue-grey with fine grain, a row of
    /// spruces along the ridge and two ski tracks. The same picture every time (its grain is
    /// seeded).
    static func slope() -> [UInt32] {
        var pixels = [UInt32](repeating: 0, count: width * height)
        // The grain: a fixed xorshift sequence.
        var state: UInt64 = 2026
        func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        let ridge = Int(0.24 * Double(height))
        for y in 0..<height {
            for x in 0..<width {
                var r: Double, g: Double, b: Double
                if y < ridge {
                    let t = Double(y) / Double(ridge)
                    (r, g, b) = (150 + 60 * t, 185 + 40 * t, 230 + 15 * t)
                } else {
                    let t = Double(y - ridge) / Double(height - ridge), across = Double(x) / Double(width)
                    let shade = 245 - 40 * t - 25 * across
                    let grain = Double(Int(next() % 13)) - 6
                    (r, g, b) = (shade - 12 + grain, shade - 4 + grain, shade + 6 + grain)
                    // Two ski tracks curving down the slope.
                    for track in [0.3, 0.7] {
                        let centre = (track + 0.08 * sin(t * 5)) * Double(width)
                        if abs(Double(x) - centre) < 2 + 3 * t { (r, g, b) = (r - 35, g - 30, b - 22) }
                    }
                }
                pixels[y * width + x] = ClipWriter.xrgb(r, g, b)
            }
        }
        // Spruces: dark triangles standing on the ridge.
        for (index, base) in stride(from: 40, to: width, by: 97).enumerated() {
            let tall = 60 + (index * 37) % 50, wide = tall / 2
            for dy in 0..<tall {
                let half = wide * dy / tall / 2
                for dx in -half...half {
                    let x = base + dx, y = ridge - tall + dy + 10
                    if x >= 0 && x < width && y >= 0 { pixels[y * width + x] = ClipWriter.xrgb(30, 62, 40) }
                }
            }
        }
        return pixels
    }

    /// The signboard, in front of everything.
    static func drawBoard(into picture: inout [UInt32]) {
        let x0 = Int(board.x * Double(width)), x1 = Int((board.x + board.width) * Double(width))
        let y0 = Int(board.y * Double(height)), y1 = Int((board.y + board.height) * Double(height))
        for y in y0..<y1 { for x in x0..<x1 { picture[y * width + x] = ClipWriter.xrgb(28, 90, 60) } }
        // Its post, to the ground.
        let post = (x0 + x1) / 2
        for y in y1..<min(y1 + 80, height) { for x in (post - 4)...(post + 4) { picture[y * width + x] = ClipWriter.xrgb(60, 60, 60) } }
    }

    /// A clip's truth file: a `frame,x,y,w,h` line a frame (pixels of the clip), by frame.
    public static func readTruth(_ path: String) throws -> [Int: PixelRect] {
        guard let bytes = try AtomicFile.read(path, limit: 1 << 24) else { throw BenchError("no truth file at \(path)") }
        var truth: [Int: PixelRect] = [:]
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: ",").map { Int($0.filter { $0 != " " && $0 != "\r" }) }
            guard fields.count == 5, let frame = fields[0], let x = fields[1], let y = fields[2], let w = fields[3],
                  let h = fields[4] else { continue }
            truth[frame] = PixelRect(x: x, y: y, width: w, height: h)
        }
        return truth
    }
}
