import ReflexCore
import ReflexFormats
import ReflexISP

/// The camera's own output, small, as seeds for the targets whose real inputs it writes: a
/// JPEG with its EXIF and thumbnail, DNGs plain and lossless (with a GPS fix), a lossless
/// tile, the settings file, a fragmented movie's box layout. `reflex-fuzz seeds` writes them;
/// Tests/Fuzz/corpus holds what it wrote beside the real files other devices made.
public enum FuzzSeeds {
    /// Seeds by target name.
    public static func all() throws -> [String: [(name: String, bytes: [UInt8])]] {
        // (An RGBImage borrows its pixels: each is used inside the closure that lends them. Kept
        // past it, the release build freed the array and the files held whatever came next.)
        let jpeg = try gradient(width: 96, height: 64).withUnsafeBufferPointer { rgb in
            try JPEGEncoder.encode(RGBImage(pixels: rgb.baseAddress!, width: 96, height: 64), quality: 80, photo: photo)
        }
        let raw = Bayer(width: 64, height: 48)
        var dngs: [(String, [UInt8])] = []
        try gradient(width: 32, height: 24).withUnsafeBufferPointer { preview in
            let previewImage = RGBImage(pixels: preview.baseAddress!, width: 32, height: 24)
            for (name, compression) in [("camera-plain.dng", DNGCompression.none), ("camera-lossless.dng", .losslessJPEG)] {
                let dng = try raw.bytes.withUnsafeBytes { bytes in
                    try DNGEncoder.encode(raw: bytes.baseAddress!, layout: raw.layout, photo: photo, rawDescription: description,
                                          preview: previewImage, compression: compression)
                }
                dngs.append((name, dng))
            }
        }
        let tile = raw.samples.withUnsafeBufferPointer {
            LosslessJPEGEncoder.encode($0.baseAddress!, width: 64, height: 48, rowStride: 64, precision: 12)
        }
        return [
            "settings": [("first-start.conf", Array(SettingsFile.encode(.firstStart).utf8))],
            "jpeg-review": [("camera.jpg", jpeg)],
            "exif": [("camera.jpg", jpeg)],
            "dng": dngs,
            "lossless-jpeg": [("camera-tile.ljpg", tile)],
            "mp4-recovery": [("fragmented.mp4", movieBoxes(cut: 0)), ("fragmented-cut.mp4", movieBoxes(cut: 37))],
        ]
    }

    static let photo = PhotoDescription(
        make: "Reflex", model: "Reflex One", software: "Reflex seed", lensModel: "4.4mm f/2.8", orientation: .turnedLeft,
        exposureSeconds: 1.0 / 125, iso: 400, fNumber: 2.8, focalLengthMillimetres: 4.4, focalLength35mm: 28,
        captured: PhotoTime(year: 2026, month: 11, day: 26, hour: 12, minute: 0, second: 0, millisecond: 5, utcOffsetMinutes: 60),
        location: GPSFix(latitude: 48.8583, longitude: 2.2945, altitude: 35, mode: .threeD,
                         time: UTCTime(year: 2026, month: 11, day: 26, hour: 11, minute: 0, second: 0)))

    static let description = RawDescription(
        uniqueCameraModel: "Reflex Reflex One", blackLevels: [256, 256, 256, 256], whiteLevel: 4095,
        calibrations: [ColourCalibrationSet(illuminant: .d65, colorMatrix: Matrix3([0.7, -0.2, -0.05, -0.4, 1.2, 0.2, -0.1, 0.2, 0.6]))],
        asShotNeutral: SIMD3(0.5, 1, 0.625), baselineExposure: 0.25, noiseProfile: NoiseProfile(scale: 2.0e-5, offset: 4.0e-7),
        activeArea: nil, defaultCrop: nil)

    static func gradient(width: Int, height: Int) -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                (pixels[i], pixels[i + 1], pixels[i + 2]) = (UInt8(x * 255 / width), UInt8(y * 255 / height), UInt8((x ^ y) & 255))
            }
        }
        return pixels
    }

    /// A 12-bit RGGB frame, unpacked to 16 bits a sample.
    struct Bayer {
        let samples: [UInt16]
        let bytes: [UInt8]
        let layout: RawLayout

        init(width: Int, height: Int) {
            samples = (0..<(width * height)).map { UInt16(256 + ($0 % width) * 40 + ($0 / width) * 17) & 0x0FFF }
            bytes = samples.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
            layout = RawLayout(width: width, height: height, format: RawFormat(cfa: .rggb, bitsPerSample: 12, packing: .unpacked16))
        }
    }

    /// What the movie writer's fragmented MP4 looks like box by box (ftyp, moov, then moof and
    /// mdat pairs), its contents zero: the recovery reads only the headers. `cut`: bytes
    /// missing from the end, as a power cut leaves it.
    static func movieBoxes(cut: Int) -> [UInt8] {
        func box(_ type: String, _ size: Int) -> [UInt8] {
            [UInt8(size >> 24 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
                + Array(type.utf8) + [UInt8](repeating: 0, count: size - 8)
        }
        let whole = box("ftyp", 28) + box("moov", 120) + box("moof", 64) + box("mdat", 300) + box("moof", 64) + box("mdat", 200)
            + box("mfra", 16)
        return Array(whole.dropLast(cut))
    }
}
