import ReflexCore
import Testing
@testable import ReflexHardware
import ReflexISP

/// Auto exposure and white balance closing the loop on the simulated sensor, frame by frame,
/// with the sensor's two-frame latency: the camera's own exposure controller (the one the
/// sensor thread runs), fed the simulated frames' statistics. The test of Auto mode.
struct AutoLoop {
    let layout = RawLayout(width: 320, height: 240, format: SimulatedScene.format)
    var scene: SimulatedScene
    var controller: ExposureController
    var latency: SimulatedExposureLatency
    let isp = PreviewISP(maximumSourceWidth: 320, maximumSourceHeight: 240, maximumOutputWidth: 16)
    var buffer: [UInt8]
    var statistics = FrameStatistics()
    /// The spot metered (a tap in Auto); nil: the whole frame.
    var spot: PixelRect?
    /// The left half of the scene four stops darker (a half-dark scene).
    var darkLeftHalf = false

    static let limits = ExposureLimits(exposure: 0.000_05...0.5, analogGain: 1...16, previewExposureLimit: 1.0 / 30)

    init(scene: SimulatedScene, start: ExposureSetting, settings: CameraSettings = CameraSettings()) {
        self.scene = scene
        controller = ExposureController(
            sensor: SensorExposureModel(limits: AutoLoop.limits, gainMapping: nil), color: ColourCalibration(),
            levels: (SimulatedScene.blackLevel, SimulatedScene.whiteLevel), current: start,
            delayFrames: SimulatedExposureLatency.framesOfDelay - 1)
        _ = controller.apply(settings, afterFrame: nil)
        latency = SimulatedExposureLatency(initial: start)
        buffer = [UInt8](repeating: 0, count: layout.byteCount)
    }

    /// Runs `frames` frames at 60 fps the way the sensor thread does: the controller says
    /// which frames are metered and what each was taken with, and its requests are rounded
    /// to the controls' steps (100 µs, gain in 1/16) as a sensor's are. Returns each metered
    /// frame's luma and the setting then in force.
    mutating func run(frames: Int, from first: Int = 0) -> [(luma: Double, setting: ExposureSetting)] {
        var trace: [(Double, ExposureSetting)] = []
        for n in first..<(first + frames) {
            let requested = controller.requested
            let sensor = latency.nextFrame(requested: ExposureSetting(exposure: requested.exposure, analogGain: requested.analogGain))
            buffer.withUnsafeMutableBytes { scene.render(into: $0.baseAddress!, layout: layout, time: Double(n) / 60, setting: sensor, frameNumber: UInt64(n)) }
            if darkLeftHalf { darkenLeftHalf() }
            guard controller.meters(frameCount: n) else { continue }
            let taken = controller.taken(forFrame: UInt32(n))
            #expect(abs(taken.exposure - sensor.exposure) < 1e-9 && abs(taken.analogGain - sensor.analogGain) < 1e-9,
                    "frame \(n): the history knows what the frame had")
            guard let parameters = controller.parameters(forFrame: UInt32(n)) else {
                Issue.record("frame \(n): metered without ISP parameters")
                continue
            }
            isp.setParameters(parameters, format: SimulatedScene.format)
            buffer.withUnsafeBytes { isp.collectStatistics($0.baseAddress!, layout: layout, spot: spot, into: &statistics) }
            if let next = controller.meter(statistics, frame: UInt32(n)) {
                controller.sent(AutoLoop.quantised(next), afterFrame: UInt32(n))
            }
            trace.append((controller.lastLuma, controller.requested))
        }
        return trace
    }

    /// Takes the left half's light down four stops (its signal above black divided by 16).
    mutating func darkenLeftHalf() {
        let black = UInt16(SimulatedScene.blackLevel)
        buffer.withUnsafeMutableBytes { raw in
            let samples = raw.bindMemory(to: UInt16.self)
            for y in 0..<layout.height {
                for x in 0..<(layout.width / 2) {
                    let i = y * layout.bytesPerLine / 2 + x
                    samples[i] = black + (max(samples[i], black) - black) / 16
                }
            }
        }
    }

    /// What a sensor's controls can take: 100 µs exposure steps, gain in sixteenths.
    static func quantised(_ setting: ExposureSetting) -> ExposureSetting {
        ExposureSetting(exposure: max((setting.exposure / 0.0001).rounded(), 1) * 0.0001,
                        analogGain: max((setting.analogGain * 16).rounded() / 16, 1), digitalGain: setting.digitalGain)
    }
}

/// How far from mid grey, in stops.
func stopsFromTarget(_ luma: Double) -> Double { abs(FastMath.log2(max(luma, 1e-6) / AutoExposure.midGrey)) }

/// How often the asked-for brightness changed direction.
func reversals(_ trace: [(luma: Double, setting: ExposureSetting)]) -> Int {
    var last = 0.0, count = 0
    for (a, b) in zip(trace, trace.dropFirst()) {
        let change = FastMath.log2(b.setting.product / a.setting.product)
        guard abs(change) > 0.01 else { continue }
        if last != 0 && (change > 0) != (last > 0) { count += 1 }
        last = change
    }
    return count
}

@Suite("Auto exposure on the simulated sensor")
struct AutoExposureConvergenceTests {
    @Test(arguments: [
        ("very dark start", ExposureSetting(exposure: 0.000_05, analogGain: 1)),
        ("very bright start", ExposureSetting(exposure: 1.0 / 30, analogGain: 16)),
    ])
    func convergesWithinOneSecondWithoutOscillating(start: String, setting: ExposureSetting) throws {
        var loop = AutoLoop(scene: SimulatedScene(), start: setting)
        let trace = loop.run(frames: 120)  // 30 metered frames
        try #require(trace.count > 15, "\(start): \(trace.count) metered frames")
        #expect(stopsFromTarget(trace[0].luma) > 2, "\(start): the start really is far off (\(trace[0].luma))")
        let settled = trace[15...]  // from frame 60: one second at 60 fps
        #expect(settled.allSatisfy { stopsFromTarget($0.luma) < 0.25 },
                "\(start): frames 60…119 within ¼ stop of mid grey: \(trace.map(\.luma))")
        #expect(reversals(trace) <= 1, "\(start): no swinging: \(trace.map { ($0.luma * 1000).rounded() / 1000 })")
        let last = settled.last!.setting
        #expect(settled.suffix(8).allSatisfy { $0.setting.matches(last) }, "\(start): settled settings stay put")
    }

    /// A tap on the picture (in Auto) meters that spot: on a half-dark scene a tap on the dark
    /// half exposes more than the whole frame does, a tap on the bright half less.
    @Test func aTapOnTheDarkHalfRaisesTheExposureAndOnTheBrightHalfLowersIt() throws {
        func settled(tapping x: Double?) throws -> Double {
            var loop = AutoLoop(scene: SimulatedScene(), start: ExposureSetting(exposure: 1.0 / 100, analogGain: 1))
            loop.darkLeftHalf = true
            loop.spot = x.map { MeteringPoint(x: $0, y: 0.5).rect(width: loop.layout.width, height: loop.layout.height) }
            let trace = loop.run(frames: 180)
            let last = try #require(trace.last, "no frame metered")
            #expect(stopsFromTarget(last.luma) < 0.34, "the spot (or frame) metered to mid grey: \(last.luma)")
            return last.setting.product
        }
        let whole = try settled(tapping: nil), dark = try settled(tapping: 0.2), bright = try settled(tapping: 0.8)
        #expect(FastMath.log2(dark / whole) > 1, "the dark spot: \(dark) against the whole frame's \(whole)")
        #expect(FastMath.log2(whole / bright) > 1, "the bright spot: \(bright) against the whole frame's \(whole)")
    }

    @Test func exposureTimeComesBeforeGain() {
        let ae = AutoExposure(limits: AutoLoop.limits)
        let dim = ae.allocate(product: 1.0 / 60)
        #expect(dim.exposure == 1.0 / 60 && dim.analogGain == 1)
        let darker = ae.allocate(product: 0.2)
        #expect(darker.exposure == 1.0 / 30 && abs(darker.analogGain - 6) < 1e-9)
        let darkest = ae.allocate(product: 2)
        #expect(darkest.analogGain == 16 && darkest.digitalGain == 3.75)
        let bright = ae.allocate(product: 1e-6)
        #expect(bright.exposure == 0.000_05 && bright.analogGain == 1 && bright.digitalGain == 1)
    }

    @Test func exposureCompensationMovesTheTargetByThirds() throws {
        var plusOne = CameraSettings()
        plusOne.exposureCompensation = ExposureCompensation(thirds: 3)
        var loop = AutoLoop(scene: SimulatedScene(), start: ExposureSetting(exposure: 1.0 / 100, analogGain: 1),
                            settings: plusOne)
        let trace = loop.run(frames: 120)
        let last = try #require(trace.last, "no frame metered")
        #expect(abs(FastMath.log2(last.luma / (AutoExposure.midGrey * 2))) < 0.25, "+1 EV doubles mid grey")
        #expect(ExposureCompensation(thirds: 12).thirds == 9)
    }

    @Test func aLargeClippingAreaDoesNotMakeItSwing() {
        // Half the frame is a sky that clips whenever the rest is near mid grey.
        var ae = AutoExposure(limits: AutoLoop.limits)
        var frame = ExposureSetting(exposure: 1.0 / 100, analogGain: 1)
        var directions: [Bool] = []
        for _ in 0..<60 {
            let clipped = frame.product > 0.008 ? 0.5 : 0.0
            let luma = min(0.18 * frame.product / 0.01, 1)
            let next = ae.update(meanLuma: luma, clippedFraction: clipped, frame: frame)
            if !next.matches(frame) { directions.append(next.product > frame.product) }
            frame = next
        }
        let reversals = zip(directions, directions.dropFirst()).filter { $0 != $1 }.count
        #expect(reversals <= 2, "held below the clipping level instead of swinging: \(directions)")
    }

    @Test func highlightsThatClipStopItFromBrightening() {
        var ae = AutoExposure(limits: AutoLoop.limits)
        let frame = ExposureSetting(exposure: 1.0 / 100, analogGain: 1)
        // Dark on average, but a tenth of the frame is clipping: hold, do not brighten.
        let held = ae.update(meanLuma: 0.09, clippedFraction: 0.05, frame: frame)
        #expect(held.product <= frame.product)
        let darker = ae.update(meanLuma: 0.12, clippedFraction: 0.2, frame: frame)
        #expect(darker.product < frame.product)
    }

    @Test func greyWorldWhiteBalanceNeutralisesAColourCast() {
        var awb = AutoWhiteBalance()
        for _ in 0..<40 { _ = awb.update(meanRGB: SIMD3(0.3, 0.2, 0.1), clippedFraction: 0) }
        #expect(abs(awb.gains.x - 2.0 / 3) < 0.01 && abs(awb.gains.z - 2) < 0.02)
        let before = awb.gains
        _ = awb.update(meanRGB: SIMD3(0.001, 0.001, 0.001), clippedFraction: 0)
        #expect(awb.gains == before, "too dark to judge: held")
    }
}

@Suite("The simulated sensor")
struct SimulatedSensorTests {
    let layout = RawLayout(width: 320, height: 240, format: SimulatedScene.format)

    /// Mean level above black of a patch of one card, and the noise: the spread of the
    /// difference of two frames (texture cancels, noise adds up by √2).
    func meanLevel(_ scene: SimulatedScene, _ setting: ExposureSetting) -> (mean: Double, spread: Double) {
        var first = [UInt8](repeating: 0, count: layout.byteCount), second = first
        first.withUnsafeMutableBytes { scene.render(into: $0.baseAddress!, layout: layout, time: 0, setting: setting, frameNumber: 1) }
        second.withUnsafeMutableBytes { scene.render(into: $0.baseAddress!, layout: layout, time: 0, setting: setting, frameNumber: 2) }
        func level(_ bytes: [UInt8], _ x: Int, _ y: Int) -> Double {
            Double(UInt16(bytes[(y * 320 + x) * 2]) | UInt16(bytes[(y * 320 + x) * 2 + 1]) << 8)
        }
        var levels: [Double] = [], differences: [Double] = []
        for y in stride(from: 110, to: 140, by: 2) {
            for x in stride(from: 161, to: 190, by: 2) {
                levels.append(level(first, x, y))
                differences.append(level(first, x, y) - level(second, x, y))
            }
        }
        let mean = levels.reduce(0, +) / Double(levels.count)
        let spread = (differences.map { $0 * $0 }.reduce(0, +) / Double(differences.count) / 2).squareRoot()
        return (mean - Double(SimulatedScene.blackLevel), spread)
    }

    @Test func brightnessFollowsExposureTimesGain() {
        let scene = SimulatedScene(noise: false)
        let base = meanLevel(scene, ExposureSetting(exposure: 1.0 / 400, analogGain: 1)).mean
        let doubleTime = meanLevel(scene, ExposureSetting(exposure: 1.0 / 200, analogGain: 1)).mean
        let doubleGain = meanLevel(scene, ExposureSetting(exposure: 1.0 / 400, analogGain: 2)).mean
        #expect(base > 50)
        #expect(abs(doubleTime / base - 2) < 0.05 && abs(doubleGain / base - 2) < 0.05)
    }

    @Test func noiseRisesWithGainAtTheSameBrightness() {
        let scene = SimulatedScene()
        let low = meanLevel(scene, ExposureSetting(exposure: 1.0 / 100, analogGain: 1))
        let high = meanLevel(scene, ExposureSetting(exposure: 1.0 / 1600, analogGain: 16))
        #expect(abs(low.mean / high.mean - 1) < 0.1, "same brightness: \(low.mean) vs \(high.mean)")
        #expect(high.spread > 2 * low.spread, "noisier at gain 16: \(low.spread) vs \(high.spread)")
    }

    @Test func theSceneMoves() {
        var a = [UInt8](repeating: 0, count: layout.byteCount), b = a
        let setting = ExposureSetting(exposure: 1.0 / 100, analogGain: 1)
        let scene = SimulatedScene(noise: false)
        a.withUnsafeMutableBytes { scene.render(into: $0.baseAddress!, layout: layout, time: 0, setting: setting, frameNumber: 0) }
        b.withUnsafeMutableBytes { scene.render(into: $0.baseAddress!, layout: layout, time: 0.5, setting: setting, frameNumber: 1) }
        #expect(a != b)
    }

    @Test func newSettingsArriveTwoFramesLate() {
        var latency = SimulatedExposureLatency(initial: ExposureSetting(exposure: 0.01, analogGain: 1))
        let wanted = ExposureSetting(exposure: 0.02, analogGain: 2)
        #expect(latency.nextFrame(requested: wanted).exposure == 0.01)
        #expect(latency.nextFrame(requested: wanted).exposure == 0.01)
        #expect(latency.nextFrame(requested: wanted) == wanted)
    }
}

/// Enhanced RAW in Auto on the simulated scene (whose cloud clips at the metered exposure):
/// the sensor is underexposed until the raw no longer clips, the digital gain makes it up,
/// and the picture's brightness is what the other formats meter; in Pro nothing moves.
@Suite("Enhanced RAW's exposure on the simulated sensor")
struct EnhancedRawExposureTests {
    static let start = ExposureSetting(exposure: 1.0 / 250, analogGain: 2)

    static func settle(_ settings: CameraSettings) -> (loop: AutoLoop, trace: [(luma: Double, setting: ExposureSetting)]) {
        var loop = AutoLoop(scene: SimulatedScene(noise: false), start: start, settings: settings)
        let trace = loop.run(frames: 600)
        return (loop, trace)
    }

    @Test func autoKeepsTheHighlightsAndTheViewfindersBrightness() throws {
        let plain = Self.settle(CameraSettings())
        try #require(plain.loop.statistics.clippedFraction > HighlightHeadroom.clippedAbove,
                     "the scene clips at the metered exposure: \(plain.loop.statistics.clippedFraction)")
        var settings = CameraSettings()
        settings.format = .enhancedRaw
        let enhanced = Self.settle(settings)
        #expect(enhanced.loop.statistics.clippedFraction <= HighlightHeadroom.clippedAbove,
                "the raw keeps its highlights: \(enhanced.loop.statistics.clippedFraction) of tiles clipped")
        let setting = enhanced.loop.controller.requested
        #expect(setting.digitalGain > 1.2, "the ISP brightens what the sensor was denied: \(setting)")
        // The picture as bright as the other formats make it (within AE's own dead band).
        let lumaPlain = try #require(plain.trace.last).luma, lumaEnhanced = try #require(enhanced.trace.last).luma
        #expect(abs(FastMath.log2(lumaEnhanced / lumaPlain)) < 0.2, "\(lumaEnhanced) beside \(lumaPlain)")
        #expect(reversals(Array(enhanced.trace.suffix(60))) == 0, "settled, not swinging")
    }

    @Test func proHoldsThePhotographersExposure() {
        var settings = CameraSettings()
        settings.format = .enhancedRaw
        settings.mode = .pro
        settings.iso = .manual(ISOSpeed(200))
        settings.shutter = .manual(ShutterSpeed(1, 250))
        let pro = Self.settle(settings)
        #expect(pro.loop.controller.requested.digitalGain == 1)
    }
}
