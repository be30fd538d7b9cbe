import ReflexCore
import ReflexFormats
import ReflexISP
import ReflexStorage
import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// Review of a RAW alone: a sensor-sized DNG as the camera writes it (lossless JPEG tiles),
/// read back and developed by the viewfinder's ISP to the panel (the single view) and by the
/// still pipeline whole (the zoom's detail), beside LibRaw's programs on the same file: its
/// decode alone (`unprocessed_raw`), its half-size development (`dcraw_emu -h`) and its
/// bilinear full development (`dcraw_emu -q 0`), in their CPU time.
struct ReviewRawBench {
    let width: Int
    let height: Int
    let screen: [Int]
    let runs: Int
    let folder: String

    func run() throws {
        let path = folder + "/RFLX0001.DNG"
        let dng = try Self.cameraDNG(width: width, height: height)
        try AtomicFile.write(dng, to: path)
        var raw: DNGRaw?
        let read = try medianSeconds(runs) {
            guard let bytes = try AtomicFile.read(path, limit: dng.count) else { throw BenchError("the DNG went missing") }
            raw = try DNGRaw.read(bytes)
        }
        guard let raw else { throw BenchError("the DNG was not read") }
        var shown: ReviewPicture?
        let fitted = medianSeconds(runs) { shown = ReviewPicture.raw(raw, fitting: screen[0], screen[1]) }
        let detail = medianSeconds(max(runs / 3, 1)) { _ = ReviewDetail.raw(raw) }
        print("  a RAW alone, \(width)x\(height) 12-bit in lossless JPEG (\(dng.count / 1000) KB): read and decoded "
              + "\(milliseconds(read)), developed to \(shown?.width ?? 0)x\(shown?.height ?? 0) by the viewfinder's ISP "
              + "\(milliseconds(fitted)) (the play key to it: both, target ≤ 150 ms as a JPEG's); developed whole for the zoom by "
              + "the still pipeline \(milliseconds(detail))")
        guard access("/usr/bin/unprocessed_raw", X_OK) == 0, access("/usr/bin/dcraw_emu", X_OK) == 0 else {
            return print("  reference: skipped (no LibRaw programs: apt-get install libraw-bin)")
        }
        // (Each writes its result too: a few ms of the figure.)
        let decode = ChildCPU.seconds { _ = system("/usr/bin/unprocessed_raw '\(path)' >/dev/null 2>&1") }
        let half = ChildCPU.seconds { _ = system("/usr/bin/dcraw_emu -h '\(path)' >/dev/null 2>&1") }
        let whole = ChildCPU.seconds { _ = system("/usr/bin/dcraw_emu -q 0 '\(path)' >/dev/null 2>&1") }
        print("  reference, LibRaw on the same file (CPU time, one run): decoded \(milliseconds(decode)); developed at half "
              + "size \(milliseconds(half)); developed whole, bilinear, \(milliseconds(whole))")
    }

    /// A frame as a 12-bit sensor gives it (a picture with detail and noise, so it compresses
    /// as a real one does), in a DNG as the camera writes it.
    static func cameraDNG(width: Int, height: Int) throws -> [UInt8] {
        var state: UInt32 = 0x2545_F491
        var samples = [UInt16](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                state ^= state << 13; state ^= state >> 17; state ^= state << 5  // xorshift32
                let texture = ((x / 3 + y / 5) % 7) * 90 + (x * 1800 / width) + (y % 2 == 0 && x % 2 == 0 ? 600 : 0)
                samples[y * width + x] = UInt16(256 + texture + Int(state % 24))
            }
        }
        let layout = RawLayout(width: width, height: height, format: RawFormat(cfa: .rggb, bitsPerSample: 12, packing: .unpacked16))
        let description = RawDescription(uniqueCameraModel: "Reflex Bench", blackLevels: [256, 256, 256, 256], whiteLevel: 4095,
                                         calibrations: [ColourCalibrationSet(illuminant: .d65, colorMatrix: .sRGBFromXYZ)],
                                         asShotNeutral: SIMD3(0.5, 1, 0.6))
        let preview = [UInt8](repeating: 128, count: 256 * 192 * 3)
        return try samples.withUnsafeBytes { bytes throws(PhotoEncodingError) in
            try preview.withUnsafeBufferPointer { pixels throws(PhotoEncodingError) in
                try DNGEncoder.encode(raw: bytes.baseAddress!, layout: layout, photo: PhotoFileBench.photo, rawDescription: description,
                                      preview: RGBImage(pixels: pixels.baseAddress!, width: 256, height: 192),
                                      compression: .losslessJPEG)
            }
        }
    }
}
