import ReflexCore
import ReflexFormats
import ReflexHardware
import ReflexStorage
import ReflexVision
#if canImport(Glibc)
import Glibc
#endif

/// The clip of real people in athletic poses auto-zoom is measured on: a footballer mid-kick
/// (OpenCV's messi5.jpg) cut from his photograph with GrabCut, crossing the empty campus path
/// of OpenCV's vtest.avi (the per-pixel median of its pictures: its walkers gone) from a
/// twentieth of the frame's height to more than a third as he comes nearer, turning back
/// after 7 s; a second real person (vtest's walker, cut out as the skier clip's) stands still
/// at the side, a third of the frame high, and the scene keeps vtest's own people who stood
/// still through its pictures. 12 s at 30 fps, 1280x720, the footballer's true box known
/// for every frame (his cut-out's own extent).
public enum AthleteClip {
    public static let width = 1280, height = 720, framesPerSecond = 30
    public static let frameCount = 360
    /// Around the footballer in messi5.jpg (548x342): GrabCut starts from it.
    static let athleteRectangle = PixelRect(x: 60, y: 50, width: 405, height: 292)
    /// The walker standing by: centre across, feet and height (fractions of the frame).
    static let bystander = (x: 0.88, bottom: 0.82, height: 0.34)

    /// Where the footballer is at `time`: centre across, feet, height (fractions of the frame),
    /// and whether he faces right. He grows steadily, 5 % to 36 % of the frame's height.
    static func athlete(at time: Double) -> (x: Double, bottom: Double, height: Double, right: Bool) {
        let share = min(max(time / (Double(frameCount) / Double(framesPerSecond)), 0), 1)
        let heightShare = 0.05 * pow(0.36 / 0.05, share)
        let bottom = 0.62 + 0.25 * share
        if time < 7 { return (0.12 + 0.62 * time / 7, bottom, heightShare, true) }
        return (0.74 - 0.26 * (time - 7) / 5, bottom, heightShare, false)
    }

    static func box(centreX: Double, bottom: Double, height share: Double, aspect: Double) -> PixelRect {
        let h = share * Double(height), w = h * aspect
        return PixelRect(x: Int((centreX * Double(width) - w / 2).rounded()), y: Int((bottom * Double(height) - h).rounded()),
                         width: Int(w.rounded()), height: Int(h.rounded()))
    }

    /// Makes `folder`/skier.mp4 and skier.csv from the repository's `testData` (Tests/Data);
    /// the truth boxes.
    @discardableResult
    public static func make(testData: String, into folder: String) throws -> [PixelRect] {
        let scene = try Scene(testData: testData)
        let clip = try ClipWriter(folder: folder, width: width, height: height, framesPerSecond: framesPerSecond)
        for index in 0..<frameCount {
            let place = athlete(at: Double(index) / Double(framesPerSecond))
            let (picture, truth) = scene.picture(athleteAt: place.x, bottom: place.bottom, height: place.height, facingRight: place.right)
            try clip.add(picture, truth: truth)
        }
        try clip.finish()
        return clip.truths
    }

    /// The clip's people and scene, cut out and made once; any picture of the footballer
    /// anywhere composed from them.
    public struct Scene {
        let athlete: PersonCutOut, walker: PersonCutOut
        let scenery: [UInt32]

        public init(testData: String) throws {
            let people = testData + "/people/"
            athlete = try AthleteClip.cutOut(try readJPEG(people + "messi5.jpg"), inside: athleteRectangle, isBackground: isPitch)
            walker = try SkierClip.cutOut(from: people + "vtest-0100-6s.mp4")
            scenery = try emptyScene(from: people + "vtest-0100-6s.mp4")
        }

        /// The frame (XRGB, `AthleteClip.width` a row) with the footballer centred at `x`,
        /// his feet at `bottom`, `height` of the frame high; his true box in pixels.
        public func picture(athleteAt x: Double, bottom: Double, height: Double, facingRight: Bool = true) -> ([UInt32], PixelRect) {
            var picture = scenery
            let still = box(centreX: bystander.x, bottom: bystander.bottom, height: bystander.height, aspect: walker.aspect)
            walker.paste(into: &picture, pictureWidth: width, pictureHeight: AthleteClip.height, box: still, mirrored: true, tinted: false)
            let truth = box(centreX: x, bottom: bottom, height: height, aspect: athlete.aspect)
            athlete.paste(into: &picture, pictureWidth: width, pictureHeight: AthleteClip.height, box: truth, mirrored: !facingRight,
                          tinted: false)
            return (picture, truth)
        }
    }

    /// A picture as 3 bytes a pixel.
    struct Picture {
        var width: Int, height: Int, rgb: [UInt8]
    }

    static func readJPEG(_ path: String) throws -> Picture {
        guard let bytes = try AtomicFile.read(path, limit: 1 << 24) else { throw BenchError("no \(path)") }
        let decoded = try TurboJPEGDecoder(bytes)
        return Picture(width: decoded.width, height: decoded.height, rgb: decoded.rgb)
    }

    /// The person inside `rectangle`, cut by GrabCut, less what `isBackground` says is
    /// (GrabCut keeps the pitch between a player's feet where the rectangle meets the
    /// photograph's edge: a chroma key takes it out), the largest piece kept.
    static func cutOut(_ picture: Picture, inside rectangle: PixelRect,
                       isBackground: (UInt8, UInt8, UInt8) -> Bool = { _, _, _ in false }) throws -> PersonCutOut {
        var mask = try ForegroundCut.mask(rgb: picture.rgb, width: picture.width, height: picture.height, inside: rectangle)
        for index in mask.indices where mask[index]
            && isBackground(picture.rgb[index * 3], picture.rgb[index * 3 + 1], picture.rgb[index * 3 + 2]) {
            mask[index] = false
        }
        let person = PersonCutOut.largestPiece(of: mask, width: picture.width, height: picture.height)
        guard let cut = PersonCutOut(rgb: picture.rgb, mask: person, maskWidth: picture.width) else {
            throw BenchError("no person inside \(rectangle)")
        }
        return cut
    }

    /// The pitch's green (the kit is red, blue, white and skin; the ball and boots yellow).
    static func isPitch(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Bool { Int(g) > Int(r) + 25 && Int(g) > Int(b) + 10 }

    /// The clip's scene without its walkers (the median of every fourth picture), scaled to
    /// cover the frame (its middle kept), as XRGB.
    static func emptyScene(from source: String) throws -> [UInt32] {
        let video = try VideoPictures(path: source)
        let sample = video.sample
        let sourceWidth = video.width, sourceHeight = video.height
        var median = [UInt8](repeating: 0, count: sourceWidth * sourceHeight * 3)
        var values = [UInt8](repeating: 0, count: sample.count)
        for index in median.indices {
            for (n, picture) in sample.enumerated() { values[n] = picture[index] }
            values.sort()
            median[index] = values[values.count / 2]
        }
        // Cover: the larger of the two scales, the middle of the other side kept (bilinear).
        let scale = max(Double(width) / Double(sourceWidth), Double(height) / Double(sourceHeight))
        let offsetX = (Double(sourceWidth) * scale - Double(width)) / 2, offsetY = (Double(sourceHeight) * scale - Double(height)) / 2
        var scene = [UInt32](repeating: 0, count: width * height)
        for y in 0..<height {
            let sy = min(max((Double(y) + offsetY + 0.5) / scale - 0.5, 0), Double(sourceHeight - 1))
            let y0 = Int(sy), y1 = min(y0 + 1, sourceHeight - 1), fy = sy - Double(y0)
            for x in 0..<width {
                let sx = min(max((Double(x) + offsetX + 0.5) / scale - 0.5, 0), Double(sourceWidth - 1))
                let x0 = Int(sx), x1 = min(x0 + 1, sourceWidth - 1), fx = sx - Double(x0)
                func sample(_ channel: Int) -> Double {
                    func at(_ px: Int, _ py: Int) -> Double { Double(median[(py * sourceWidth + px) * 3 + channel]) }
                    return (at(x0, y0) * (1 - fx) + at(x1, y0) * fx) * (1 - fy) + (at(x0, y1) * (1 - fx) + at(x1, y1) * fx) * fy
                }
                scene[y * width + x] = ClipWriter.xrgb(sample(0), sample(1), sample(2))
            }
        }
        return scene
    }
}
