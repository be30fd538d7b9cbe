import ArgumentParser
import ReflexCore
import ReflexHardware
import ReflexISP
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
        let sides = size.lowercased().split(separator: "x").compactMap { Int($0) }
        guard sides.count == 2, sides.allSatisfy({ $0 >= 128 && $0 % 2 == 0 }), (2...16).contains(frames) else {
            throw ValidationError("--size is WIDTHxHEIGHT, even, at least 128x128; --frames 2 to 16")
        }
        let (width, height) = (sides[0], sides[1])
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
    }
}
