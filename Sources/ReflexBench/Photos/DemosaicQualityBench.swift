import ReflexCore
import ReflexFormats
import ReflexHardware
import ReflexISP
import ReflexStorage
#if canImport(Glibc)
import Glibc
#endif

/// How true the photo's colours are: a simulated-sensor frame whose every pixel the
/// simulator renders with its own colour (so the truth is known), demosaiced by the photo ISP,
/// by the preview's half-size method, and by LibRaw's AHD (`dcraw_emu -q 3 -o 0 -4`) from our
/// DNG of the same frame; each compared with the truth in the camera's own linear colours
/// (after the best gain for each channel, so scale and white balance do not count) as PSNR.
struct DemosaicQualityBench {
    let folder: String
    static let (width, height) = (1280, 720)
    static let setting = ExposureSetting(exposure: 0.01, analogGain: 1)
    static let time = 0.7

    func run() throws {
        let (w, h) = (Self.width, Self.height)
        let layout = RawLayout(width: w, height: h, format: SimulatedScene.format)
        var raw = [UInt16](repeating: 0, count: w * h)
        let scene = SimulatedScene(noise: false, perPixel: true)
        raw.withUnsafeMutableBytes {
            scene.render(into: $0.baseAddress!, layout: layout, time: Self.time, setting: Self.setting, frameNumber: 1)
        }
        let peak = Double(SimulatedScene.whiteLevel - SimulatedScene.blackLevel)
        var truth = [Double](repeating: 0, count: w * h * 3)
        for y in 0..<h {
            for x in 0..<w {
                let t = scene.truth(x: x, y: y, width: w, height: h, time: Self.time, setting: Self.setting)
                for (c, value) in [t.x, t.y, t.z].enumerated() { truth[(y * w + x) * 3 + c] = min(value, peak) }
            }
        }
        let ours = photoDemosaic(raw, layout: layout, peak: peak)
        let preview = previewMethod(raw, width: w, height: h)
        print("Demosaic quality: a \(w)x\(h) simulated frame (no noise) against the simulator's truth, "
              + "camera colours, PSNR (higher is better)")
        print("  photo ISP: \(Self.decibels(Self.psnr(ours, truth, width: w, height: h, peak: peak)))")
        print("  the preview's half-size method, upscaled: \(Self.decibels(Self.psnr(preview, truth, width: w, height: h, peak: peak)))")
        if let ahd = try libRawAHD(raw, layout: layout) {
            print("  reference LibRaw AHD (dcraw_emu -q 3 -o 0 -4) on our DNG: "
                  + Self.decibels(Self.psnr(ahd, truth, width: w, height: h, peak: peak)))
        } else {
            print("  reference LibRaw AHD: dcraw_emu is not installed or wrote nothing (apt-get install libraw-bin)")
        }
        print("  target: the photo ISP at least as high as AHD, well above the preview's")
    }

    static func decibels(_ value: Double) -> String { Formatting.fixed(value, 2) + " dB" }

    private func photoDemosaic(_ raw: [UInt16], layout: RawLayout, peak: Double) -> [Double] {
        let (w, h) = (layout.width, layout.height)
        let demosaic = PhotoDemosaic(maximumWidth: w, maximumSourceWidth: w, maximumBandRows: PhotoISP.bandRows)
        let parameters = ISPParameters(blackLevel: SimulatedScene.blackLevel, whiteLevel: SimulatedScene.whiteLevel)
        var out = [Double](repeating: 0, count: w * h * 3)
        raw.withUnsafeBytes { bytes in
            var start = 0
            while start < h {
                let band = start..<min(start + PhotoISP.bandRows, h)
                demosaic.demosaic(bytes.baseAddress!, layout: layout, parameters: parameters,
                                  crop: PixelRect(x: 0, y: 0, width: w, height: h), rows: band) { row, red, green, blue in
                    for x in 0..<w {
                        let i = (row * w + x) * 3
                        (out[i], out[i + 1], out[i + 2]) = (Double(red[x]) * peak, Double(green[x]) * peak, Double(blue[x]) * peak)
                    }
                }
                start = band.upperBound
            }
        }
        return out
    }

    /// One colour a 2×2 tile, as the preview makes it, shown at full size.
    private func previewMethod(_ raw: [UInt16], width w: Int, height h: Int) -> [Double] {
        let black = Double(SimulatedScene.blackLevel)
        var out = [Double](repeating: 0, count: w * h * 3)
        for y in 0..<h {
            for x in 0..<w {
                let (tx, ty) = (x & ~1, y & ~1)
                let i = (y * w + x) * 3
                out[i] = Double(raw[ty * w + tx]) - black
                out[i + 1] = (Double(raw[ty * w + tx + 1]) + Double(raw[(ty + 1) * w + tx])) / 2 - black
                out[i + 2] = Double(raw[(ty + 1) * w + tx + 1]) - black
            }
        }
        return out
    }

    /// LibRaw's AHD on our DNG of the frame, linear camera colours, unit white balance.
    private func libRawAHD(_ raw: [UInt16], layout: RawLayout) throws -> [Double]? {
        guard access("/usr/bin/dcraw_emu", X_OK) == 0 else { return nil }
        let description = RawDescription(uniqueCameraModel: "Reflex Bench", blackLevels: Array(repeating: Double(SimulatedScene.blackLevel), count: 4),
                                         whiteLevel: SimulatedScene.whiteLevel,
                                         calibrations: [ColourCalibrationSet(illuminant: .d65, colorMatrix: .sRGBFromXYZ)],
                                         asShotNeutral: nil)
        let preview = [UInt8](repeating: 128, count: 16 * 9 * 3)
        let dng = try raw.withUnsafeBytes { bytes throws(PhotoEncodingError) in
            try preview.withUnsafeBufferPointer { pixels throws(PhotoEncodingError) in
                try DNGEncoder.encode(raw: bytes.baseAddress!, layout: layout, photo: PhotoFileBench.photo,
                                      rawDescription: description, preview: RGBImage(pixels: pixels.baseAddress!, width: 16, height: 9))
            }
        }
        let path = folder + "/quality.dng"
        try AtomicFile.write(dng, to: path)
        unlink(path + ".ppm")
        _ = system("/usr/bin/dcraw_emu -q 3 -o 0 -4 -r 1 1 1 1 -W '\(path)' >/dev/null 2>&1")
        return PPM.read16(path + ".ppm").map { $0.map(Double.init) }
    }

    /// PSNR over the picture less an 8-pixel border, after each channel's least-squares gain.
    static func psnr(_ estimate: [Double], _ truth: [Double], width: Int, height: Int, peak: Double) -> Double {
        var squared = 0.0, count = 0
        let border = 8
        for c in 0..<3 {
            var xy = 0.0, xx = 0.0
            for y in border..<(height - border) {
                for x in border..<(width - border) {
                    let i = (y * width + x) * 3 + c
                    xy += estimate[i] * truth[i]
                    xx += estimate[i] * estimate[i]
                }
            }
            let gain = xx > 0 ? xy / xx : 1
            for y in border..<(height - border) {
                for x in border..<(width - border) {
                    let i = (y * width + x) * 3 + c
                    let d = estimate[i] * gain - truth[i]
                    squared += d * d
                    count += 1
                }
            }
        }
        return 10 * FastMath.log2(peak * peak / max(squared / Double(count), 1e-12)) / FastMath.log2(10)
    }
}
