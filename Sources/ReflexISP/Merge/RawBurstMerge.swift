/// Enhanced RAW's merge, from frames as the sensor packed them to one 16-bit mosaic: each
/// frame unpacked, aligned to the first (the reference, the frame of the press) on its grey
/// pyramid, and merged (`BurstMerge`), the result scaled to 16 bits so the precision the
/// average gained is kept: a 12-bit sensor's merge is stored ×16, its levels with it.
public enum RawBurstMerge {
    public struct Merged: Sendable {
        /// The mosaic, `width` × `height`, in the sensor's CFA order.
        public var samples: [UInt16]
        public var width: Int
        public var height: Int
        /// The levels of the samples (the sensor's, scaled as the samples are).
        public var blackLevel: Int
        public var whiteLevel: Int
        /// The factor the sensor's values were multiplied by.
        public var scale: Int
        /// The frames merged, the reference included.
        public var frameCount: Int
        /// The merged result's noise where every frame counted (signal 0…1 above black): the
        /// frames' own, divided by their number.
        public var noise: NoiseProfile

        /// The layout of `samples` as a raw frame (16-bit, unpadded) with the sensor's CFA.
        public func layout(cfa: CFAPattern) -> RawLayout {
            RawLayout(width: width, height: height, bytesPerLine: width * 2,
                      format: RawFormat(cfa: cfa, bitsPerSample: 16, packing: .unpacked16))
        }
    }

    /// `frames`: each laid out as `layout`, the first the reference; `blackLevel` and
    /// `whiteLevel` the sensor's; `noise` a single frame's. `parallel`: the frames are
    /// unpacked and aligned, and the tiles merged, on its threads.
    ///
    /// Memory: frames already 16-bit a sample, unpadded, are read where they are; packed ones
    /// are unpacked into copies. The reference's grey pyramid is kept, an alternate's only while
    /// it is aligned (one a thread); then the merge's sums (a Float a sample) and the result.
    public static func merge(_ frames: [UnsafeRawPointer], layout: RawLayout, blackLevel: Int, whiteLevel: Int,
                             noise: NoiseProfile, parallel: ParallelWork = .sequential) -> Merged {
        precondition(!frames.isEmpty, "at least the reference")
        let width = layout.width & ~1, height = layout.height & ~1
        let readInPlace = layout.format.packing == .unpacked16 && layout.bytesPerLine == width * 2
        var unpacked = [[UInt16]](repeating: [], count: readInPlace ? 0 : frames.count)
        if !readInPlace {
            unpacked.withUnsafeMutableBufferPointer { unpacked in
                parallel.forEach(frames.count) { index in
                    var samples = [UInt16](repeating: 0, count: width * height)
                    samples.withUnsafeMutableBufferPointer { out in
                        for y in 0..<height {
                            RawUnpacking.unpack(row: frames[index] + y * layout.bytesPerLine, packing: layout.format.packing,
                                                first: 0, count: width, into: out.baseAddress! + y * width)
                        }
                    }
                    unpacked[index] = samples
                }
            }
        }
        return withSamples(frames, unpacked: unpacked) { samples in
            let reference = GreyPyramid(bayer: samples[0], width: width, height: height)
            var alignments = [TileAlignment?](repeating: nil, count: frames.count - 1)
            alignments.withUnsafeMutableBufferPointer { alignments in
                parallel.forEach(frames.count - 1) { index in
                    let pyramid = GreyPyramid(bayer: samples[index + 1], width: width, height: height)
                    alignments[index] = TileAlignment.align(pyramid, to: reference)
                }
            }
            let bits = max(Int.bitWidth - max(whiteLevel, 1).leadingZeroBitCount, 1)
            let scale = 1 << max(16 - bits, 0)
            let merged = BurstMerge.merge(samples, alignments: alignments.map { $0! }, width: width, height: height,
                                          blackLevel: blackLevel, whiteLevel: whiteLevel, noise: noise,
                                          outputScale: Float(scale), parallel: parallel)
            let count = frames.count
            return Merged(samples: merged, width: width, height: height, blackLevel: blackLevel * scale,
                          whiteLevel: whiteLevel * scale, scale: scale, frameCount: count,
                          noise: NoiseProfile(scale: noise.scale / Double(count), offset: noise.offset / Double(count)))
        }
    }

    /// `body` with each frame's 16-bit samples: the frames' own memory, or their unpacked
    /// copies when there are any (valid inside `body` only).
    private static func withSamples<Result>(_ frames: [UnsafeRawPointer], unpacked: [[UInt16]],
                                            _ body: ([UnsafePointer<UInt16>]) -> Result) -> Result {
        guard !unpacked.isEmpty else { return body(frames.map { $0.assumingMemoryBound(to: UInt16.self) }) }
        return BurstMerge.withPointers(to: unpacked, body)
    }
}
