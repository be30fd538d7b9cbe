import CTurboJPEG
import ReflexCore
import ReflexFormats
import ReflexISP
import ReflexStorage
import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// A large frame's files: the DNG (encoded and written atomically) beside write + fsync of as
/// many bytes; the JPEG's encoding beside TurboJPEG alone on the same pixels; the whole still
/// path (raw frame → JPEG file) beside LibRaw's dcraw_emu developing our DNG with AHD.
struct PhotoFileBench {
    let frame: LargeFrame
    let folder: String
    let iterations: Int

    static let photo = PhotoDescription(make: "Reflex", model: "Bench", software: "Reflex bench", exposureSeconds: 0.01,
                                        iso: 200, fNumber: 2.8, focalLengthMillimetres: 4.4,
                                        captured: PhotoTime(year: 2026, month: 1, day: 2, hour: 3, minute: 4, second: 5))
    var raw: RawDescription { Self.rawDescription(of: frame) }

    /// What a DNG of `frame` says of its raw data (the levels, the colour, the noise).
    static func rawDescription(of frame: LargeFrame) -> RawDescription {
        RawDescription(uniqueCameraModel: "Reflex Bench", blackLevels: Array(repeating: Double(frame.parameters.blackLevel), count: 4),
                       whiteLevel: frame.parameters.whiteLevel,
                       calibrations: [ColourCalibrationSet(illuminant: .d65, colorMatrix: .sRGBFromXYZ)],
                       asShotNeutral: SIMD3(1 / 1.2, 1, 1 / 1.4), noiseProfile: NoiseProfile(scale: 1e-4, offset: 1e-7))
    }

    func run() throws {
        let (w, h) = (frame.layout.width, frame.layout.height)
        print("Photo files: a \(frame.megapixels) RGGB 12-bit frame (\(w)x\(h)), files in \(folder)")
        let rgb = UnsafeMutablePointer<UInt8>.allocate(capacity: w * h * 3)
        defer { rgb.deallocate() }
        let isp = PhotoISP(maximumWidth: w, maximumSourceWidth: w)
        let image = RGBImage(pixels: rgb, width: w, height: h)
        let render = medianSeconds(iterations) {
            isp.render(frame.bytes.baseAddress!, layout: frame.layout, parameters: frame.parameters, into: rgb, outputStride: w * 3)
        }
        let previewHeight = ImageDownscaler.height(of: image, scaledToWidth: DNGEncoder.previewWidth)
        let preview = ImageDownscaler.downscale(image, width: DNGEncoder.previewWidth, height: previewHeight)
        try dngRows(preview: preview, previewHeight: previewHeight)
        try preview.withUnsafeBufferPointer { small in
            try jpegRows(image, thumbnailSource: RGBImage(pixels: small.baseAddress!, width: DNGEncoder.previewWidth,
                                                          height: previewHeight))
        }
        try stillPathRows(image: image, render: render, isp: isp, rgb: rgb)
    }

    /// The DNG: encoded in memory, then temp → fsync → rename → fsync of the folder; the
    /// reference writes and fsyncs as many bytes to a file in the same folder.
    private func dngRows(preview: [UInt8], previewHeight: Int) throws {
        func encode(_ compression: DNGCompression) throws -> [UInt8] {
            try preview.withUnsafeBufferPointer { pixels throws(PhotoEncodingError) in
                try DNGEncoder.encode(raw: frame.bytes.baseAddress!, layout: frame.layout, photo: PhotoFileBench.photo,
                                      rawDescription: raw,
                                      preview: RGBImage(pixels: pixels.baseAddress!, width: DNGEncoder.previewWidth,
                                                        height: previewHeight),
                                      compression: compression)
            }
        }
        var dng: [UInt8] = []
        let encoded = try medianSeconds(iterations) { dng = try encode(.none) }
        let path = folder + "/bench.dng"
        let write = try medianSeconds(iterations) {
            unlink(path)
            try AtomicFile.write(dng, to: path)
        }
        let plain = try medianSeconds(iterations) { try plainWriteAndSync(dng, to: folder + "/plain.bin") }
        print("  DNG (\(dng.count / 1_000_000) MB): encoded \(milliseconds(encoded)) + written atomically "
              + "\(milliseconds(write)) = \(milliseconds(encoded + write)); reference write + fsync of as many bytes "
              + "\(milliseconds(plain)): \(Formatting.fixed((encoded + write) / plain, 2))× (target ≤ 1.3×)")
        // The same frame as lossless JPEG tiles (Enhanced RAW's DNG): fewer bytes, more work.
        var lossless: [UInt8] = []
        let losslessEncoded = try medianSeconds(iterations) { lossless = try encode(.losslessJPEG) }
        let losslessWrite = try medianSeconds(iterations) {
            unlink(path)
            try AtomicFile.write(lossless, to: path)
        }
        print("  DNG as lossless JPEG (\(lossless.count / 1_000_000) MB, "
              + "\(Formatting.fixed(100 * Double(lossless.count) / Double(dng.count), 0)) % of the plain): encoded "
              + "\(milliseconds(losslessEncoded)) + written atomically \(milliseconds(losslessWrite)) = "
              + "\(milliseconds(losslessEncoded + losslessWrite)), beside the plain DNG's \(milliseconds(encoded + write))")
    }

    /// The JPEG (with its EXIF and thumbnail, made from the DNG's preview as the camera makes
    /// it) beside TurboJPEG alone, same pixels, quality, subsampling and (accurate) DCT, timed
    /// in pairs.
    private func jpegRows(_ image: RGBImage, thumbnailSource: RGBImage) throws {
        guard let handle = tjInitCompress() else { throw BenchError("TurboJPEG cannot start") }
        defer { tjDestroy(handle) }
        var ours = 0.0, alone = 0.0, size = 0
        var failed = false
        let ratio = Row.pairedRatio(iterations: max(iterations, 4)) {
            var buffer: UnsafeMutablePointer<UInt8>?
            var length: UInt = 0
            let start = monotonicSeconds()
            if tjCompress2(handle, image.pixels, Int32(image.width), 0, Int32(image.height), Int32(TJPF_RGB.rawValue), &buffer,
                           &length, Int32(TJSAMP_420.rawValue), 92, REFLEX_TJFLAG_ACCURATEDCT) != 0 { failed = true }
            alone = monotonicSeconds() - start
            tjFree(buffer)
        } _: {
            let start = monotonicSeconds()
            size = (try? JPEGEncoder.encode(image, quality: 92, photo: PhotoFileBench.photo,
                                            thumbnailSource: thumbnailSource).count) ?? 0
            ours = monotonicSeconds() - start
        }
        guard !failed, size > 0 else { throw BenchError("a JPEG could not be encoded") }
        print("  JPEG (quality 92, 4:2:0, \(size / 1000) KB with EXIF and thumbnail): \(milliseconds(ours)); "
              + "reference TurboJPEG alone \(milliseconds(alone)); ours takes \(Formatting.fixed(1 / ratio, 2))× its time "
              + "(timed in pairs; target ≤ 1.2×)")
    }

    /// Raw frame → JPEG file, ours; and dcraw_emu -q 3 (AHD) developing our DNG of the frame.
    private func stillPathRows(image: RGBImage, render: Double, isp: PhotoISP, rgb: UnsafeMutablePointer<UInt8>) throws {
        let path = folder + "/still.jpg"
        let whole = try medianSeconds(iterations) {
            isp.render(frame.bytes.baseAddress!, layout: frame.layout, parameters: frame.parameters, into: rgb,
                       outputStride: image.width * 3)
            let jpeg = try JPEGEncoder.encode(image, quality: 92, photo: PhotoFileBench.photo)
            unlink(path)
            try AtomicFile.write(jpeg, to: path)
        }
        print("  still path, raw frame → JPEG file: \(milliseconds(whole)) (the photo ISP's demosaic and colour "
              + "\(milliseconds(render)))")
        let dng = folder + "/bench.dng"
        guard access("/usr/bin/dcraw_emu", X_OK) == 0, access(dng, R_OK) == 0 else {
            print("  reference dcraw_emu: not installed (apt-get install libraw-bin)")
            return
        }
        let libraw = medianSeconds(max(iterations / 2, 1)) {
            _ = system("/usr/bin/dcraw_emu -q 3 -T '\(dng)' >/dev/null 2>&1")
        }
        print("  reference LibRaw dcraw_emu -q 3 (AHD) developing our DNG to a TIFF: \(milliseconds(libraw)) "
              + "(\(Formatting.fixed(libraw / whole, 1))× ours)")
    }

    private func plainWriteAndSync(_ bytes: [UInt8], to path: String) throws {
        let file = try FileDescriptor(opening: path, O_WRONLY | O_CREAT | O_TRUNC, permissions: 0o644)
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(SystemError) in try file.writeAll(buffer.baseAddress!, count: buffer.count) }
        }.get()
        try file.sync()
        try file.close()
    }
}
