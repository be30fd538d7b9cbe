import ReflexCore
import ReflexHardware
import ReflexISP

/// `reflex bench merge`'s rows that judge the merged picture rather than its time: the
/// alignment under a handheld shake (the detail kept, against one frame's) and the dynamic
/// range on a step wedge (against one RAW at the viewfinder's exposure), both on the simulated
/// sensor's frames against its own truth. Public, so the tests hold the same figures to the
/// same targets at a smaller size.
public struct MergeQualityBench: Sendable {
    public let frames: Int
    public let width: Int
    public let height: Int

    public init(frames: Int, width: Int, height: Int) {
        self.frames = frames
        self.width = width
        self.height = height
    }

    var layout: RawLayout { RawLayout(width: width, height: height, format: SimulatedScene.format) }
    var noise: NoiseProfile { SensorCalibration.simulated.noise(atGain: 1) }

    /// Frames `numbers` of `scene` at `setting` (a burst 1/30 s apart from half a second in).
    func burst(_ scene: SimulatedScene, setting: ExposureSetting, numbers: [UInt64]) -> [[UInt16]] {
        numbers.enumerated().map { index, number in
            var samples = [UInt16](repeating: 0, count: width * height)
            samples.withUnsafeMutableBytes {
                scene.render(into: $0.baseAddress!, layout: layout, time: 0.5 + Double(index) / 30, setting: setting,
                             frameNumber: number)
            }
            return samples
        }
    }

    /// The camera's own merge (`RawBurstMerge`, as the photo thread runs it) of `burst`.
    func merged(_ burst: [[UInt16]], noise: NoiseProfile) -> RawBurstMerge.Merged {
        let held = burst.map { frame in
            let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: frame.count * 2, alignment: 16)
            frame.withUnsafeBytes { memory.copyMemory(from: $0) }
            return memory
        }
        defer { held.forEach { $0.deallocate() } }
        return RawBurstMerge.merge(held.map { UnsafeRawPointer($0.baseAddress!) }, layout: layout,
                                   blackLevel: SimulatedScene.blackLevel, whiteLevel: SimulatedScene.whiteLevel, noise: noise)
    }

    /// The detail each picture of a shaken burst keeps (`DetailRetention`, 1 is the truth's).
    public struct Alignment: Sendable {
        public var oneFrame: Double
        public var merged: Double
        /// A plain average of the frames where the alignment put them, and as they were shot.
        public var alignedAverage: Double
        public var unalignedAverage: Double
        /// One frame's distance from the truth over the merge's.
        public var lessNoise: Double
    }

    /// A hand's shake between the frames (the scene moved a few pixels and turned a little):
    /// the detail the merge keeps against one frame's, beside a plain average of the aligned
    /// frames and one of the frames as shot (what alignment saves).
    public func alignment(shake: CameraShake = CameraShake()) -> Alignment {
        let setting = ExposureSetting(exposure: 0.01, analogGain: 1)
        var scene = SimulatedScene(noise: true)
        scene.shake = shake
        let numbers = (0..<frames).map { UInt64(300 + $0) }
        let shots = burst(scene, setting: setting, numbers: numbers)
        scene.noise = false
        let truth = burst(scene, setting: setting, numbers: [numbers[0]])[0]
        let merge = merged(shots, noise: noise)
        let pyramids = shots.map { GreyPyramid(bayer: $0, width: width, height: height) }
        let alignments = pyramids.dropFirst().map { TileAlignment.align($0, to: pyramids[0]) }
        let unaligned = alignments.map { alignment -> TileAlignment in
            var still = alignment
            still.offsets = still.offsets.map { _ in .zero }
            return still
        }
        func average(_ placed: [TileAlignment]) -> [UInt16] {
            BurstMerge.merge(shots, alignments: placed, width: width, height: height, blackLevel: SimulatedScene.blackLevel,
                             whiteLevel: SimulatedScene.whiteLevel, noise: noise, robustness: BurstMerge.plainAverage)
        }

        func score(_ samples: [UInt16], scale: Int = 1) -> Double {
            DetailRetention.score(samples, scale: Double(scale), truth: truth, width: width, height: height,
                                  rows: (height / 8)..<(7 * height / 8), columns: (width / 8)..<(7 * width / 8))
        }
        return Alignment(oneFrame: score(shots[0]), merged: score(merge.samples, scale: merge.scale),
                         alignedAverage: score(average(alignments)), unalignedAverage: score(average(unaligned)),
                         lessNoise: deviation(shots[0], scale: 1, truth: truth)
                            / deviation(merge.samples, scale: merge.scale, truth: truth))
    }

    func alignmentRow() {
        let shake = CameraShake(), figures = alignment(shake: shake)
        let percent = { (value: Double) in Formatting.fixed(100 * value / figures.oneFrame, 1, width: 0) + " %" }
        print("  handheld (±\(Formatting.fixed(shake.shift, 0, width: 0)) px, ±\(Formatting.fixed(shake.rotation, 2, width: 0))° "
              + "a frame), detail kept against one frame's: merged \(percent(figures.merged)) (target ≥ 95 %); "
              + "a plain average of the aligned frames \(percent(figures.alignedAverage)), of the frames as shot "
              + "\(percent(figures.unalignedAverage)); the merge's distance from the truth "
              + "\(Formatting.fixed(figures.lessNoise, 2, width: 0))× less than one frame's")
    }

    /// The root mean square of `samples` (÷ `scale`) less `truth`, over the frame's middle.
    func deviation(_ samples: [UInt16], scale: Int, truth: [UInt16]) -> Double {
        var sum = 0.0, count = 0
        for y in stride(from: height / 8, to: 7 * height / 8, by: 3) {
            for x in stride(from: width / 8, to: 7 * width / 8, by: 3) {
                let d = Double(samples[y * width + x]) / Double(scale) - Double(truth[y * width + x])
                sum += d * d
                count += 1
            }
        }
        return (sum / Double(count)).squareRoot()
    }

    /// The usable stops of each picture of the step wedge.
    public struct DynamicRange: Sendable {
        /// One RAW at the viewfinder's exposure.
        public var oneRaw: Double
        /// Enhanced RAW's merge, and one of its underexposed frames alone.
        public var merged: Double
        public var oneUnderexposedFrame: Double
    }

    /// The step wedge at the viewfinder's exposure for a room's light: one RAW as the camera
    /// takes it, and Enhanced RAW's burst, underexposed by the headroom's most (the wedge's
    /// brightest patches clip far above it) and merged.
    public func dynamicRange(wedge: StepWedge = StepWedge()) -> DynamicRange {
        var scene = SimulatedScene(noise: true)
        scene.stepWedge = wedge
        let exposure = AutoExposure(limits: ExposureLimits(exposure: 1e-4...0.1, analogGain: 1...16))
        var enhancedExposure = exposure
        enhancedExposure.headroomStops = HighlightHeadroom.mostStops
        // A room: 1/100 s at gain 1 puts the scene's grey (radiance 1) at mid grey.
        let product = 0.01
        let viewfinder = exposure.allocate(product: product), underexposed = enhancedExposure.allocate(product: product)
        let single = burst(scene, setting: viewfinder, numbers: [400])[0]
        let shots = burst(scene, setting: underexposed, numbers: (0..<frames).map { UInt64(410 + $0) })
        let merge = merged(shots, noise: SensorCalibration.simulated.noise(atGain: underexposed.analogGain))
        func stops(_ samples: [UInt16], black: Int, white: Int) -> Double {
            wedge.usableStops(wedge.readings(samples, width: width, height: height, blackLevel: black, whiteLevel: white))
        }
        return DynamicRange(oneRaw: stops(single, black: SimulatedScene.blackLevel, white: SimulatedScene.whiteLevel),
                            merged: stops(merge.samples, black: merge.blackLevel, white: merge.whiteLevel),
                            oneUnderexposedFrame: stops(shots[0], black: SimulatedScene.blackLevel,
                                                        white: SimulatedScene.whiteLevel))
    }

    func dynamicRangeRow() {
        let wedge = StepWedge(), figures = dynamicRange(wedge: wedge)
        let stops = { (value: Double) in Formatting.fixed(value, 2, width: 0) }
        print("  step wedge (\(wedge.steps) patches \(stops(wedge.stepStops)) stop apart), usable stops (SNR ≥ 1, unclipped): "
              + "one RAW at the viewfinder's exposure \(stops(figures.oneRaw)), Enhanced RAW "
              + "(−\(stops(HighlightHeadroom.mostStops)) EV, \(frames) frames) \(stops(figures.merged)): "
              + "+\(stops(figures.merged - figures.oneRaw)) (target ≥ +1.5); one of its frames alone "
              + "\(stops(figures.oneUnderexposedFrame))")
    }
}
