import ReflexCore
import ReflexHardware
import ReflexISP
import Testing
@testable import ReflexRuntime

/// The photo thread's helpers: a merge split over threads is the same merge, sample for
/// sample, as on the photo thread alone (each row of tiles is summed by one thread, the
/// even rows before the odd ones, in either case).
@Suite struct PhotoHelpersTests {
    @Test func aMergeOnThreeThreadsEqualsTheMergeOnOne() {
        let layout = RawLayout(width: 320, height: 240, format: SimulatedScene.format)
        let scene = SimulatedScene(noise: true)
        let frames: [[UInt16]] = (0..<5).map { index in
            var samples = [UInt16](repeating: 0, count: 320 * 240)
            samples.withUnsafeMutableBytes { bytes in
                scene.render(into: bytes.baseAddress!, layout: layout, time: 0.5,
                             setting: ExposureSetting(exposure: 0.01, analogGain: 4), frameNumber: UInt64(index + 1))
            }
            return samples
        }
        func merged(_ parallel: ParallelWork) -> RawBurstMerge.Merged {
            frames[0].withUnsafeBytes { a in frames[1].withUnsafeBytes { b in frames[2].withUnsafeBytes { c in
                frames[3].withUnsafeBytes { d in frames[4].withUnsafeBytes { e in
                    RawBurstMerge.merge([a, b, c, d, e].map { UnsafeRawPointer($0.baseAddress!) }, layout: layout,
                                        blackLevel: SimulatedScene.blackLevel, whiteLevel: SimulatedScene.whiteLevel,
                                        noise: SensorCalibration.simulated.noise(atGain: 4), parallel: parallel)
                } }
            } } }
        }
        let alone = merged(.sequential)
        let together = merged(PhotoHelpers.parallelWork(priority: .ordinary, cores: 3))
        #expect(alone.frameCount == 5 && alone.scale == 16 && alone.whiteLevel == SimulatedScene.whiteLevel * 16)
        #expect(together.samples == alone.samples)
    }
}
