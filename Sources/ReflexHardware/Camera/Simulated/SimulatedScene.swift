import ReflexISP
#if canImport(Glibc)
import Glibc
#endif

/// The simulated sensor's picture: a textured scene that moves, rendered as real Bayer data.
/// A sample's level is the scene's radiance × exposure × analogue gain (clipped at white),
/// plus noise that grows with the signal (shot noise) and with gain (read noise amplified),
/// so Auto exposure and the ISP meet what a real sensor gives them.
public struct SimulatedScene: Sendable, Equatable {
    public static let format = RawFormat(cfa: .rggb, bitsPerSample: 12, packing: .unpacked16)
    public static let blackLevel = 256
    public static let whiteLevel = 4095

    /// Multiplies the scene's radiance: 1 is a room lit so that 1/100 s at gain 1 is right.
    public var brightness: Double
    /// Adds noise; false gives clean frames for exact tests.
    public var noise: Bool
    /// The lens's magnification: the frame shows the middle 1/zoom of the scene.
    public var zoom = 1.0
    /// Where the lens is focused (0 closest … 1 infinity); nil: everything sharp (a photo's
    /// truth, for measuring the ISP). The scene stands at two distances: its left part
    /// (`nearShare` of the width) near, in focus at `nearSubject`, the rest far, at
    /// `farSubject`; the fine stripes, its detail, lose contrast with the distance between
    /// the lens's focus and their subject's, as an out-of-focus picture does.
    public var lensFocus: Double?
    public static let nearSubject = 0.3, farSubject = 0.8, nearShare = 0.4
    /// Each pixel sees the scene at its own place (a photo's detail, for measuring a
    /// demosaic against the truth); false: the four pixels of a 2×2 tile see the same point,
    /// which is cheaper and all the preview shows.
    public var perPixel = false
    /// A hand holding the camera: each frame sees the scene from its own pose (nil: a tripod).
    public var shake: CameraShake?
    /// The frame shows this grey wedge instead of the scene (for measuring dynamic range).
    public var stepWedge: StepWedge?

    public init(brightness: Double = 1, noise: Bool = true, perPixel: Bool = false) {
        self.brightness = brightness
        self.noise = noise
        self.perPixel = perPixel
    }

    /// The scene's true colour at pixel (x, y) of a `width` × `height` frame at `time`: the
    /// linear signal each channel would have (sample units above black, unclipped), before
    /// the colour filter takes two of the three away.
    public func truth(x: Int, y: Int, width: Int, height: Int, time: Double, setting: ExposureSetting) -> SIMD3<Double> {
        let place = ScenePlace(width: width, height: height, time: time, pose: .still)
        return radiance(at: place, x: x, y: y) * (SimulatedScene.sensitivity * setting.exposure * setting.analogGain * brightness)
    }

    /// Where the moving ball is in a `width` × `height` frame at `time` (at zoom 1), in pixels:
    /// the moving subject a merge must not ghost.
    public static func ball(width: Int, height: Int, time: Double) -> (x: Double, y: Double, radius: Double) {
        let place = ScenePlace(width: width, height: height, time: time, pose: .still)
        return (place.ballX, place.ballY, place.ballRadius)
    }

    /// Where the ball is at a moment, the frame's geometry, and where the hand held it.
    struct ScenePlace {
        let width: Int, height: Int
        let ballX: Double, ballY: Double, ballRadius: Double
        let centreX: Double, centreY: Double
        let pose: CameraShake.Pose

        init(width: Int, height: Int, time: Double, pose: CameraShake.Pose) {
            self.width = width
            self.height = height
            self.pose = pose
            // A bright ball circles the frame once every four seconds.
            ballX = Double(width) * (0.5 + 0.3 * cos(time * .pi / 2))
            ballY = Double(height) * (0.5 + 0.3 * sin(time * .pi / 2))
            ballRadius = Double(min(width, height)) / 14
            centreX = Double(width) / 2
            centreY = Double(height) / 2
        }
    }

    /// The radiance pixel (x, y) sees (zoomed, the frame shows the scene's centre, magnified;
    /// moved and turned by the hand's pose).
    func radiance(at place: ScenePlace, x: Int, y: Int) -> SIMD3<Double> {
        let (px, py, pose) = (Double(x) - place.centreX, Double(y) - place.centreY, place.pose)
        let sceneX = place.centreX + (pose.cosine * px - pose.sine * py + pose.dx) / zoom
        let sceneY = place.centreY + (pose.sine * px + pose.cosine * py + pose.dy) / zoom
        if let stepWedge {
            return SIMD3(repeating: stepWedge.radiance(x: sceneX, y: sceneY, width: place.width, height: place.height))
        }
        return SimulatedScene.radiance(x: sceneX, y: sceneY,
                                       width: place.width, ballX: place.ballX, ballY: place.ballY, ballRadius: place.ballRadius,
                                       detail: detail(atSceneX: sceneX, width: place.width))
    }

    /// How much of the fine detail's contrast the lens keeps at a place: 1 in focus, falling
    /// with the square of the defocus.
    func detail(atSceneX x: Double, width: Int) -> Double {
        guard let lensFocus else { return 1 }
        let subject = x < Double(width) * SimulatedScene.nearShare ? SimulatedScene.nearSubject : SimulatedScene.farSubject
        let defocus = 5 * (lensFocus - subject)
        return 1 / (1 + defocus * defocus)
    }

    /// Electrons-like units per radiance·second at gain 1: a mean radiance of 1 at 1/100 s
    /// reaches mid grey (0.18 of the signal range).
    static let sensitivity = 0.18 * 100 * Double(whiteLevel - blackLevel)

    /// Renders one frame at `time` (seconds) into `buffer` (`layout` must use `format`).
    public func render(into buffer: UnsafeMutableRawPointer, layout: RawLayout, time: Double,
                       setting: ExposureSetting, frameNumber: UInt64) {
        precondition(layout.format == SimulatedScene.format, "the simulated sensor makes RGGB 12-bit frames")
        if !perPixel && layout.width * layout.height > SimulatedScene.largeFramePixels {
            return renderLarge(into: buffer, layout: layout, time: time, setting: setting, frameNumber: frameNumber)
        }
        let scale = SimulatedScene.sensitivity * setting.exposure * setting.analogGain * brightness
        let readNoise = 2.0 * setting.analogGain
        let black = Double(SimulatedScene.blackLevel)
        let white = Double(SimulatedScene.whiteLevel)
        var random = SplitMix(frame: frameNumber, stream: 1)
        let place = ScenePlace(width: layout.width, height: layout.height, time: time,
                               pose: shake?.pose(frame: frameNumber) ?? .still)
        for tileY in 0..<(layout.height / 2) {
            let row0 = (buffer + 2 * tileY * layout.bytesPerLine).assumingMemoryBound(to: UInt16.self)
            let row1 = (buffer + (2 * tileY + 1) * layout.bytesPerLine).assumingMemoryBound(to: UInt16.self)
            for tileX in 0..<(layout.width / 2) {
                func sample(_ channel: Double) -> UInt16 {
                    let signal = channel * scale
                    var level = black + signal
                    if noise {
                        let sigma = (max(signal, 0) * setting.analogGain).squareRoot() * 0.3 + readNoise
                        level += random.gaussian() * sigma
                    }
                    return UInt16(min(max(level, 0), white).rounded())
                }
                let (x, y) = (2 * tileX, 2 * tileY)
                if perPixel {
                    row0[x] = sample(radiance(at: place, x: x, y: y).x)
                    row0[x + 1] = sample(radiance(at: place, x: x + 1, y: y).y)
                    row1[x] = sample(radiance(at: place, x: x, y: y + 1).y)
                    row1[x + 1] = sample(radiance(at: place, x: x + 1, y: y + 1).z)
                } else {
                    let tile = radiance(at: place, x: x, y: y)
                    row0[x] = sample(tile.x)
                    row0[x + 1] = sample(tile.y)
                    row1[x] = sample(tile.y)
                    row1[x + 1] = sample(tile.z)
                }
            }
        }
    }

    /// Frames larger than this (the 12 MP mode) are rendered the cheap way, `renderLarge`.
    static let largeFramePixels = 4_000_000

    /// Gaussian draws made once; a large frame's noise reads them from a random place each row.
    static let noiseTable: [Float] = {
        var random = SplitMix(seed: 0x5EED)
        return (0..<noiseTableSize).map { _ in Float(random.gaussian()) }
    }()
    static let noiseTableSize = 1 << 16

    /// A 12 MP frame at 10 fps the simple way would take a core (about 100 ms a frame): here
    /// the scene is seen once per 4×4 block and the noise comes from `noiseTable`, so the
    /// twin costs a fraction of what the camera it feeds does. The picture is the same scene
    /// at a quarter of the detail, its noise as strong.
    private func renderLarge(into buffer: UnsafeMutableRawPointer, layout: RawLayout, time: Double,
                             setting: ExposureSetting, frameNumber: UInt64) {
        let scale = SimulatedScene.sensitivity * setting.exposure * setting.analogGain * brightness
        let readNoise = Float(2.0 * setting.analogGain)
        let gain = setting.analogGain
        let black = Float(SimulatedScene.blackLevel)
        let white = Float(SimulatedScene.whiteLevel)
        var random = SplitMix(frame: frameNumber, stream: 1)
        let place = ScenePlace(width: layout.width, height: layout.height, time: time,
                               pose: shake?.pose(frame: frameNumber) ?? .still)
        let mask = SimulatedScene.noiseTableSize - 1
        SimulatedScene.noiseTable.withUnsafeBufferPointer { table in
            for blockY in 0..<(layout.height / 4) {
                var rows: (UnsafeMutablePointer<UInt16>, UnsafeMutablePointer<UInt16>, UnsafeMutablePointer<UInt16>,
                           UnsafeMutablePointer<UInt16>)
                rows.0 = (buffer + 4 * blockY * layout.bytesPerLine).assumingMemoryBound(to: UInt16.self)
                rows.1 = (buffer + (4 * blockY + 1) * layout.bytesPerLine).assumingMemoryBound(to: UInt16.self)
                rows.2 = (buffer + (4 * blockY + 2) * layout.bytesPerLine).assumingMemoryBound(to: UInt16.self)
                rows.3 = (buffer + (4 * blockY + 3) * layout.bytesPerLine).assumingMemoryBound(to: UInt16.self)
                let offset = random.next()
                let starts = (Int(offset & 0xFFFF), Int((offset >> 16) & 0xFFFF), Int((offset >> 32) & 0xFFFF), Int(offset >> 48))
                for blockX in 0..<(layout.width / 4) {
                    let x = 4 * blockX
                    let signal = radiance(at: place, x: x, y: 4 * blockY) * scale
                    let level = SIMD3<Float>(repeating: black) + SIMD3<Float>(signal)
                    var sigma = SIMD3<Float>(repeating: 0)
                    if noise {
                        let shot = (SIMD3<Double>(repeating: 0).replacing(with: signal, where: signal .> 0) * gain).squareRoot()
                        sigma = SIMD3<Float>(shot) * 0.3 + readNoise
                    }
                    @inline(__always) func put(_ row: UnsafeMutablePointer<UInt16>, _ start: Int, _ even: Float, _ evenSigma: Float,
                                               _ odd: Float, _ oddSigma: Float) {
                        for dx in stride(from: 0, to: 4, by: 2) {
                            let a = even + table[(start + x + dx) & mask] * evenSigma
                            let b = odd + table[(start + x + dx + 1) & mask] * oddSigma
                            row[x + dx] = UInt16(min(max(a, 0), white) + 0.5)  // (rounded, without a call)
                            row[x + dx + 1] = UInt16(min(max(b, 0), white) + 0.5)
                        }
                    }
                    put(rows.0, starts.0, level.x, sigma.x, level.y, sigma.y)
                    put(rows.1, starts.1, level.y, sigma.y, level.z, sigma.z)
                    put(rows.2, starts.2, level.x, sigma.x, level.y, sigma.y)
                    put(rows.3, starts.3, level.y, sigma.y, level.z, sigma.z)
                }
            }
        }
    }

    /// Radiance (red, green, blue) of the scene at a point: coloured cards on a grey
    /// gradient, fine stripes for focus peaking to find, and the ball (3× brighter than white
    /// paper, so highlights clip when exposure is right for the rest).
    static func radiance(x: Double, y: Double, width: Int, ballX: Double, ballY: Double, ballRadius: Double,
                         detail: Double = 1) -> SIMD3<Double> {
        let dx = x - ballX, dy = y - ballY
        if dx * dx + dy * dy < ballRadius * ballRadius { return SIMD3(5.0, 4.6, 4.0) }
        let card = (Int(x) / 96 + Int(y) / 96) % 6
        let gradient = 0.3 + 1.4 * x / Double(width)
        let colour: SIMD3<Double> = switch card {
        case 0: SIMD3(1.2, 0.35, 0.3)   // red
        case 1: SIMD3(0.35, 1.0, 0.4)   // green
        case 2: SIMD3(0.3, 0.45, 1.3)   // blue
        case 3: SIMD3(1.1, 1.0, 0.35)   // yellow
        default: SIMD3(1, 1, 1)          // grey
        }
        let stripes = Int(y) % 96 < 12 ? 1 + (Int(x) / 3 % 2 == 0 ? 0.4 : -0.4) * detail : 1.0
        return colour * gradient * stripes
    }
}
