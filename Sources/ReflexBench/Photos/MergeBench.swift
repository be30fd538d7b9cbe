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

/// `reflex bench merge`: Enhanced RAW's merge (issue 33) on a burst of the simulated sensor's
/// frames at a high-resolution sensor's size: the grey pyramids, the alignment of each frame to
/// the first and the merge, each timed, beside copying the burst's bytes once (the floor any
/// merge pays), and the noise left against one frame's (both against the scene rendered
/// without noise).
struct MergeBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge", abstract: "Benchmark Enhanced RAW's merge: a burst aligned and merged into one raw.")

    @Option(help: "Frames in the burst.") var frames = 8
    @Option(help: "The frames' size, WIDTHxHEIGHT (default: a 12 MP sensor's).") var size = "4056x3040"

    func run() throws {
        let (width, height) = try LargeFrameSize.parse(size)
        guard (2...16).contains(frames) else { throw ValidationError("--frames 2 to 16") }
        let layout = RawLayout(width: width, height: height, format: SimulatedScene.format)
        let scene = SimulatedScene(noise: true)
        // The same moment, each frame with its own noise (a burst of a still scene on a tripod).
        let burst: [[UInt16]] = (0..<frames).map { index in
            var samples = [UInt16](repeating: 0, count: width * height)
            samples.withUnsafeMutableBytes { bytes in
                scene.render(into: bytes.baseAddress!, layout: layout, time: 0.5,
                             setting: ExposureSetting(exposure: 0.01, analogGain: 4), frameNumber: UInt64(index + 1))
            }
            return samples
        }
        var copies = burst
        let copyStarted = monotonicSeconds()
        for index in copies.indices { copies[index].withUnsafeMutableBytes { _ = memcpy($0.baseAddress!, burst[index], $0.count) } }
        let copySeconds = monotonicSeconds() - copyStarted

        let pyramidStarted = monotonicSeconds()
        let pyramids = burst.map { GreyPyramid(bayer: $0, width: width, height: height) }
        let alignStarted = monotonicSeconds()
        let alignments = pyramids.dropFirst().map { TileAlignment.align($0, to: pyramids[0]) }
        let mergeStarted = monotonicSeconds()
        let merged = BurstMerge.merge(burst, alignments: alignments, width: width, height: height,
                                      blackLevel: SimulatedScene.blackLevel, whiteLevel: SimulatedScene.whiteLevel,
                                      noise: SensorCalibration.simulated.noise(atGain: 4))
        let finished = monotonicSeconds()
        let still = alignments.reduce(0) { $0 + $1.offsets.filter { $0 == .zero }.count }
        let tiles = alignments.reduce(0) { $0 + $1.offsets.count }

        // Noise: against the same frame rendered without noise (the scene's truth), on the middle.
        var truth = [UInt16](repeating: 0, count: width * height)
        truth.withUnsafeMutableBytes { bytes in
            SimulatedScene(noise: false).render(into: bytes.baseAddress!, layout: layout, time: 0.5,
                                                setting: ExposureSetting(exposure: 0.01, analogGain: 4), frameNumber: 1)
        }
        func deviation(_ samples: [UInt16]) -> Double {
            var sum = 0.0, count = 0
            for y in stride(from: height / 4, to: 3 * height / 4, by: 3) {
                for x in stride(from: width / 4, to: 3 * width / 4, by: 3) {
                    let i = y * width + x
                    let d = Double(samples[i]) - Double(truth[i])
                    sum += d * d
                    count += 1
                }
            }
            return (sum / Double(count)).squareRoot()
        }
        let single = deviation(burst[0]), together = deviation(merged)
        let megapixels = Formatting.fixed(Double(width * height) / 1e6, 1, width: 0)
        print("Merge: \(frames) frames of \(width)x\(height) (\(megapixels) MP, RGGB 12-bit) of the simulated sensor, one thread")
        print("  grey pyramids \(milliseconds(alignStarted - pyramidStarted)), alignment \(milliseconds(mergeStarted - alignStarted)) "
              + "(\(still) of \(tiles) tiles found still, as shot), merge \(milliseconds(finished - mergeStarted)); "
              + "in all \(milliseconds(finished - pyramidStarted)) (target with the DNG written: ≤ 2 s for 8 frames of 12 MP)")
        print("  reference: copying the burst's \(frames * width * height * 2 / 1_000_000) MB once: \(milliseconds(copySeconds))")
        print("  noise against the scene without noise: one frame \(Formatting.fixed(single, 1, width: 0)), merged "
              + "\(Formatting.fixed(together, 1, width: 0)): \(Formatting.fixed(single / together, 2, width: 0))× less "
              + "(target ≥ 0.8·√\(frames) = \(Formatting.fixed(0.8 * Double(frames).squareRoot(), 2, width: 0))×; "
              + "in the raw's units, at equal exposure)")
        motionRow(layout: layout, scene: scene)
        let quality = MergeQualityBench(frames: frames, width: width, height: height)
        quality.alignmentRow()
        quality.dynamicRangeRow()
        try photoThreadRows(burst, layout: layout)
    }

    /// The moving ball (the simulated scene's subject) over a burst 1/30 s apart: PSNR, where
    /// it was in any frame, against the reference's moment without noise, for the reference
    /// alone, the merge and a plain average of the same aligned frames (the motion
    /// target: the merge no worse than the reference, the average visibly worse).
    private func motionRow(layout: RawLayout, scene: SimulatedScene) {
        let (width, height) = (layout.width, layout.height)
        let setting = ExposureSetting(exposure: 0.01, analogGain: 4)
        let rendering = MergeQualityBench(frames: frames, width: width, height: height)
        let times = (0..<frames).map { 0.5 + Double($0) / 30 }  // (the bench's bursts are 1/30 s apart)
        let burst = rendering.burst(scene, setting: setting, numbers: (0..<frames).map { UInt64(100 + $0) })
        let truth = rendering.burst(SimulatedScene(noise: false), setting: setting, numbers: [1])[0]
        let pyramids = burst.map { GreyPyramid(bayer: $0, width: width, height: height) }
        let alignments = pyramids.dropFirst().map { TileAlignment.align($0, to: pyramids[0]) }
        func merged(_ robustness: Double) -> [UInt16] {
            BurstMerge.merge(burst, alignments: alignments, width: width, height: height, blackLevel: SimulatedScene.blackLevel,
                             whiteLevel: SimulatedScene.whiteLevel, noise: SensorCalibration.simulated.noise(atGain: 4),
                             robustness: robustness)
        }
        let balls = times.map { SimulatedScene.ball(width: width, height: height, time: $0) }
        func psnr(_ samples: [UInt16]) -> Double {
            var sum = 0.0, count = 0
            for y in stride(from: 0, to: height, by: 2) {
                for x in stride(from: 0, to: width, by: 2) where balls.contains(where: { ball in
                    let (dx, dy) = (Double(x) - ball.x, Double(y) - ball.y)
                    return dx * dx + dy * dy <= ball.radius * ball.radius * 1.44
                }) {
                    let d = Double(samples[y * width + x]) - Double(truth[y * width + x])
                    sum += d * d
                    count += 1
                }
            }
            return 20 * 0.30103 * FastMath.log2(Double(SimulatedScene.whiteLevel) / (sum / Double(max(count, 1))).squareRoot())
        }
        let alone = psnr(burst[0]), robust = psnr(merged(BurstMerge.robustness)), average = psnr(merged(BurstMerge.plainAverage))
        print("  motion (the ball moving \(Int((balls[1].x - balls[0].x).magnitude.rounded())) px a frame), PSNR where it was: "
              + "the reference alone \(Formatting.fixed(alone, 1, width: 0)) dB, merged \(Formatting.fixed(robust, 1, width: 0)) dB "
              + "(target ≥ the reference's), a plain average \(Formatting.fixed(average, 1, width: 0)) dB (its ghosts)")
    }

    /// The photo thread's whole path for an Enhanced RAW at the camera's own priority, its
    /// helpers on every core: unpack, align and merge, the DNG as lossless JPEG, written
    /// atomically; beside a plain RAW of one frame, encoded and written the same way.
    private func photoThreadRows(_ burst: [[UInt16]], layout: RawLayout) throws {
        let folder = "/tmp/reflex-bench-merge-\(getpid())"
        try AtomicFile.createFolder(folder)
        defer { _ = try? ChildProcess.runUntilLine(["/bin/rm", "-rf", folder], matching: nil, timeout: 30) }
        let cores = PhotoHelperThreads.onlineCores()
        let parallel = PhotoHelperThreads.parallelWork(priority: .background, cores: cores)
        let noise = SensorCalibration.simulated.noise(atGain: 4)
        let preview = [UInt8](repeating: 128, count: 256 * 192 * 3)
        func description(black: Int, white: Int, frames: Int?) -> RawDescription {
            var raw = RawDescription(uniqueCameraModel: "Reflex Bench", blackLevels: Array(repeating: Double(black), count: 4),
                                     whiteLevel: white, calibrations: [ColourCalibrationSet(illuminant: .d65, colorMatrix: .sRGBFromXYZ)],
                                     asShotNeutral: nil, noiseProfile: noise)
            raw.framesMerged = frames
            return raw
        }
        func dng(_ samples: UnsafeRawPointer, _ layout: RawLayout, _ raw: RawDescription, _ compression: DNGCompression) throws -> [UInt8] {
            try preview.withUnsafeBufferPointer { pixels in
                try DNGEncoder.encode(raw: samples, layout: layout, photo: PhotoFileBench.photo, rawDescription: raw,
                                      preview: RGBImage(pixels: pixels.baseAddress!, width: 256, height: 192), compression: compression)
            }
        }
        // The frames as the ring holds them: memory of their own, lent by pointer.
        let held = burst.map { frame in
            let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: frame.count * 2, alignment: 16)
            frame.withUnsafeBytes { memory.copyMemory(from: $0) }
            return memory
        }
        defer { held.forEach { $0.deallocate() } }
        let pointers = held.map { UnsafeRawPointer($0.baseAddress!) }
        let residentBefore = PeakMemory.residentBytes
        PeakMemory.mark()
        let started = monotonicSeconds()
        let merged = RawBurstMerge.merge(pointers, layout: layout, blackLevel: SimulatedScene.blackLevel,
                                         whiteLevel: SimulatedScene.whiteLevel, noise: noise, parallel: parallel)
        let mergedAt = monotonicSeconds()
        let file = try merged.samples.withUnsafeBytes { samples in
            try dng(samples.baseAddress!, merged.layout(cfa: layout.format.cfa),
                    description(black: merged.blackLevel, white: merged.whiteLevel, frames: merged.frameCount), .losslessJPEG)
        }
        let encodedAt = monotonicSeconds()
        try AtomicFile.write(file, to: folder + "/enhanced.dng")
        let enhancedSeconds = monotonicSeconds() - started
        let working = PeakMemory.peakBytes.flatMap { peak in residentBefore.map { max(peak - $0, 0) } }
        let plainStarted = monotonicSeconds()
        let plain = try burst[0].withUnsafeBytes { samples in
            try dng(samples.baseAddress!, layout, description(black: SimulatedScene.blackLevel, white: SimulatedScene.whiteLevel,
                                                             frames: nil), .none)
        }
        try AtomicFile.write(plain, to: folder + "/plain.dng")
        let plainSeconds = monotonicSeconds() - plainStarted
        print("  on the photo thread with \(cores - 1) helper(s) at its priority: merged \(milliseconds(mergedAt - started)), "
              + "DNG as lossless JPEG (\(file.count / 1_000_000) MB) \(milliseconds(encodedAt - mergedAt)), written; "
              + "in all \(milliseconds(enhancedSeconds)) (target ≤ 2 s for 8 frames of 12 MP); "
              + "one plain RAW (\(plain.count / 1_000_000) MB) encoded and written: \(milliseconds(plainSeconds))")
        print("  memory the merge and the DNG took beside the held frames, at its most: "
              + (working.map { "\($0 / 1_000_000) MB" } ?? "unknown")
              + " (the \(burst.count) frames themselves: \(burst.count * layout.byteCount / 1_000_000) MB, read where they are)")
    }
}
