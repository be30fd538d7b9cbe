import ReflexCore
import ReflexHardware
import ReflexISP
import Testing
@testable import ReflexRuntime

/// The photo thread's helpers: a merge split over threads is the same merge, sample for
/// sample, as on the photo thread alone (each row of tiles is summed by one thread, the
/// even rows before the odd ones, in either case).
@Suite struct PhotoHelperThreadsTests {
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
        let together = merged(PhotoHelperThreads.parallelWork(priority: .ordinary, cores: 3))
        #expect(alone.frameCount == 5 && alone.scale == 16 && alone.whiteLevel == SimulatedScene.whiteLevel * 16)
        #expect(together.samples == alone.samples)
    }

    /// Frames 16-bit a sample and unpadded are merged where they lie; padded (or packed) ones
    /// through copies: the same merge either way.
    @Test func framesReadInPlaceMergeAsTheirCopies() {
        let (width, height) = (320, 240)
        let layout = RawLayout(width: width, height: height, format: SimulatedScene.format)
        let padded = RawLayout(width: width, height: height, bytesPerLine: width * 2 + 64, format: SimulatedScene.format)
        let scene = SimulatedScene(noise: true)
        let frames: [UnsafeMutableRawBufferPointer] = (0..<4).map { index in
            let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: padded.byteCount, alignment: 16)
            scene.render(into: memory.baseAddress!, layout: padded, time: 0.5,
                         setting: ExposureSetting(exposure: 0.01, analogGain: 4), frameNumber: UInt64(index + 1))
            return memory
        }
        let tight = frames.map { frame in
            let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: layout.byteCount, alignment: 16)
            for y in 0..<height {
                (memory.baseAddress! + y * width * 2).copyMemory(from: frame.baseAddress! + y * padded.bytesPerLine, byteCount: width * 2)
            }
            return memory
        }
        defer { (frames + tight).forEach { $0.deallocate() } }
        func merged(_ memory: [UnsafeMutableRawBufferPointer], _ layout: RawLayout) -> [UInt16] {
            RawBurstMerge.merge(memory.map { UnsafeRawPointer($0.baseAddress!) }, layout: layout,
                                blackLevel: SimulatedScene.blackLevel, whiteLevel: SimulatedScene.whiteLevel,
                                noise: SensorCalibration.simulated.noise(atGain: 4)).samples
        }
        let inPlace = merged(tight, layout)
        #expect(inPlace.count == width * height)
        #expect(merged(frames, padded) == inPlace)
    }
}
