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
/// camera must follow the one moving, not those standing by.
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

        public var frameCount: Int {
            switch self {
            case .slope, .crowd: SkierClip.frameCount
            case .standing: 240
            }
        }
    }
    public static let fileName = "skier.mp4", truthName = "skier.csv"
    /// The walker cut out: vtest frame 100, the man on the right (x, y, width, height).
    static let sourceBox = PixelRect(x: 580, y: 146, width: 48, height: 96)
    /// The signboard the skier passes behind (fractions of the frame).
    static let board = FrameBox(x: 0.36, y: 0.3, width: 0.1, height: 0.48)

    /// A person cut out: colour and coverage (0…1), `width` × `height`.
    struct CutOut {
        var width: Int, height: Int
        var rgb: [UInt8]
        var alpha: [Float]
    }

    /// Where the skier is at `time` on `course`: centre and height (fractions of the frame),
    /// facing right.
    static func skier(at time: Double, on course: Course = .slope) -> (x: Double, y: Double, height: Double, right: Bool) {
        if course == .standing {
            // (One sway a loop: the last frame leads back into the first.)
            let sway = sin(2 * Double.pi * time / (Double(course.frameCount) / Double(framesPerSecond)))
            return (0.58 + 0.03 * sway, 0.6, 0.3, true)
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
        course == .crowd ? [(0.2, 0.56, 0.48), (0.92, 0.57, 0.42)] : []
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
        let aspect = Double(person.width) / Double(person.height)
        let scenery = slope()
        var picture = [UInt32](repeating: 0, count: width * height)
        let format = VideoFormat(width: width, height: height, framesPerSecond: framesPerSecond, bitRate: 8_000_000)
        guard let choice = VideoEncoderChoice.firstThatOpens(VideoEncoderChoice.candidates(memoryToMemory: nil), format: format).choice
        else { throw BenchError("no H.264 encoder opens") }
        let encoder = try VideoEncoder(choice, format: format, globalHeader: true)
        let path = folder + "/" + fileName
        let file = try FileDescriptor(opening: path + ".partial", O_WRONLY | O_CREAT | O_TRUNC, permissions: 0o644)
        let writer = try MovieWriter { bytes in
            guard let base = bytes.baseAddress else { return 0 }
            return Glibc.write(file.rawValue, base, bytes.count) == bytes.count ? 0 : errno
        }
        let stream = try writer.addStream(for: encoder.context!)
        try writer.start()
        var truths: [PixelRect] = []
        for index in 0..<course.frameCount {
            let time = Double(index) / Double(framesPerSecond)
            picture.withUnsafeMutableBufferPointer { _ = $0.update(fromContentsOf: scenery) }
            let skierPlace = skier(at: time, on: course)
            let truth = truth(frame: index, cutOutAspect: aspect, on: course)
            truths.append(truth)
            // (Those standing by are behind the skier's path: the truth is never hidden by them.)
            for still in standingBy(on: course) {
                let h = still.height * Double(height), w = h * aspect
                paste(person, into: &picture, box: PixelRect(x: Int(still.x * Double(width) - w / 2), y: Int(still.y * Double(height) - h / 2),
                                                             width: Int(w), height: Int(h)), mirrored: still.x > 0.5, tinted: true)
            }
            paste(person, into: &picture, box: truth, mirrored: !skierPlace.right, tinted: false)
            if let other = passerBy(at: time, on: course) {
                let h = other.height * Double(height), w = h * aspect
                paste(person, into: &picture, box: PixelRect(x: Int(other.x * Double(width) - w / 2), y: Int(other.y * Double(height) - h / 2),
                                                             width: Int(w), height: Int(h)), mirrored: false, tinted: true)
            }
            drawBoard(into: &picture)
            try picture.withUnsafeBufferPointer { pixels in
                _ = try encoder.encode(xrgb: pixels.baseAddress!, stride: width, index: Int64(index), into: writer, stream: stream)
            }
        }
        try encoder.finish(into: writer, stream: stream)
        try writer.finish()
        guard fsync(file.rawValue) == 0, rename(path + ".partial", path) == 0 else {
            throw BenchError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        var csv = "frame,x,y,w,h\n"
        for (index, box) in truths.enumerated() { csv += "\(index),\(box.x),\(box.y),\(box.width),\(box.height)\n" }
        try AtomicFile.write(Array(csv.utf8), to: folder + "/" + truthName)
        return truths
    }

    /// The walker of `sourceBox` in the clip's first picture, cut from the scene behind him
    /// (the per-pixel median of every fourth picture).
    static func cutOut(from source: String) throws -> CutOut {
        let reader = try VideoFileReader(path: source)
        var pictures: [[UInt8]] = []
        repeat {
            try reader.next()
            pictures.append(reader.rgb)
        } while reader.loops == 0 && pictures.count < 200
        if reader.loops > 0 { pictures.removeLast() }
        let first = pictures[0]
        let sample = stride(from: 0, to: pictures.count, by: 4).map { pictures[$0] }
        let box = sourceBox, w = reader.width
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
        let clean = largestPiece(of: filtered, width: box.width, height: box.height)
        var left = box.width, right = -1, top = box.height, bottom = -1
        for y in 0..<box.height { for x in 0..<box.width where clean[y * box.width + x] {
            (left, right, top, bottom) = (min(left, x), max(right, x), min(top, y), max(bottom, y))
        } }
        guard right > left, bottom > top else { throw BenchError("no person found at \(box) in \(source)") }
        let cw = right - left + 1, ch = bottom - top + 1
        var rgb = [UInt8](repeating: 0, count: cw * ch * 3), alpha = [Float](repeating: 0, count: cw * ch)
        for y in 0..<ch { for x in 0..<cw {
            let sx = left + x, sy = top + y
            alpha[y * cw + x] = clean[sy * box.width + sx] ? 1 : 0
            for channel in 0..<3 { rgb[(y * cw + x) * 3 + channel] = first[((box.y + sy) * w + box.x + sx) * 3 + channel] }
        } }
        return CutOut(width: cw, height: ch, rgb: rgb, alpha: alpha)
    }

    /// The largest 4-connected piece of `mask`.
    static func largestPiece(of mask: [Bool], width: Int, height: Int) -> [Bool] {
        var label = [Int](repeating: 0, count: mask.count)
        var sizes = [0]
        for start in mask.indices where mask[start] && label[start] == 0 {
            sizes.append(0)
            let piece = sizes.count - 1
            var stack = [start]
            label[start] = piece
            while let index = stack.popLast() {
                sizes[piece] += 1
                let x = index % width, y = index / width
                for (nx, ny) in [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]
                where nx >= 0 && ny >= 0 && nx < width && ny < height && mask[ny * width + nx] && label[ny * width + nx] == 0 {
                    label[ny * width + nx] = piece
                    stack.append(ny * width + nx)
                }
            }
        }
        guard let largest = sizes.indices.dropFirst().max(by: { sizes[$0] < sizes[$1] }) else { return mask }
        return label.map { $0 == largest }
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
                pixels[y * width + x] = xrgb(r, g, b)
            }
        }
        // Spruces: dark triangles standing on the ridge.
        for (index, base) in stride(from: 40, to: width, by: 97).enumerated() {
            let tall = 60 + (index * 37) % 50, wide = tall / 2
            for dy in 0..<tall {
                let half = wide * dy / tall / 2
                for dx in -half...half {
                    let x = base + dx, y = ridge - tall + dy + 10
                    if x >= 0 && x < width && y >= 0 { pixels[y * width + x] = xrgb(30, 62, 40) }
                }
            }
        }
        return pixels
    }

    static func xrgb(_ r: Double, _ g: Double, _ b: Double) -> UInt32 {
        func channel(_ v: Double) -> UInt32 { UInt32(min(max(v, 0), 255)) }
        return 0xFF00_0000 | channel(r) << 16 | channel(g) << 8 | channel(b)
    }

    /// The person scaled into `box` (nearest sample), mirrored when facing left; `tinted`
    /// gives the other person a red jacket, so two people are two.
    static func paste(_ person: CutOut, into picture: inout [UInt32], box: PixelRect, mirrored: Bool, tinted: Bool) {
        guard box.width > 0, box.height > 0 else { return }
        for y in max(box.y, 0)..<min(box.y + box.height, height) {
            let sy = min((y - box.y) * person.height / box.height, person.height - 1)
            for x in max(box.x, 0)..<min(box.x + box.width, width) {
                var sx = min((x - box.x) * person.width / box.width, person.width - 1)
                if mirrored { sx = person.width - 1 - sx }
                let source = sy * person.width + sx
                guard person.alpha[source] > 0 else { continue }
                var r = Double(person.rgb[source * 3]), g = Double(person.rgb[source * 3 + 1]), b = Double(person.rgb[source * 3 + 2])
                if tinted { (r, g, b) = (min(r * 1.8 + 40, 255), g * 0.7, b * 0.7) }
                picture[y * width + x] = xrgb(r, g, b)
            }
        }
    }

    /// The signboard, in front of everything.
    static func drawBoard(into picture: inout [UInt32]) {
        let x0 = Int(board.x * Double(width)), x1 = Int((board.x + board.width) * Double(width))
        let y0 = Int(board.y * Double(height)), y1 = Int((board.y + board.height) * Double(height))
        for y in y0..<y1 { for x in x0..<x1 { picture[y * width + x] = xrgb(28, 90, 60) } }
        // Its post, to the ground.
        let post = (x0 + x1) / 2
        for y in y1..<min(y1 + 80, height) { for x in (post - 4)...(post + 4) { picture[y * width + x] = xrgb(60, 60, 60) } }
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
