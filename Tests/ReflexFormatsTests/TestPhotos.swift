import ReflexCore
import ReflexFormats
import ReflexISP

/// The descriptions the tests write, with values a reader can be checked against.
enum TestPhotos {
    static let captured = PhotoTime(year: 2024, month: 5, day: 6, hour: 7, minute: 8, second: 9, millisecond: 42,
                                    utcOffsetMinutes: 90)

    static let photo = PhotoDescription(
        make: "Reflex", model: "Reflex One", software: "Reflex 0.1", lensModel: "4.4mm f/2.8",
        orientation: .upright, exposureSeconds: 1.0 / 125, iso: 400, fNumber: 2.8, focalLengthMillimetres: 4.4,
        focalLength35mm: 28, exposureProgram: .normal, exposureBias: -1.0 / 3, meteringMode: .centerWeighted,
        whiteBalanceManual: false, captured: captured)

    static let d65 = ColourCalibrationSet(
        illuminant: .d65, colorMatrix: Matrix3([0.7, -0.2, -0.05, -0.4, 1.2, 0.2, -0.1, 0.2, 0.6]),
        forwardMatrix: Matrix3([0.6, 0.3, 0.1, 0.25, 0.7, 0.05, 0.05, 0.1, 0.7]))

    static let standardA = ColourCalibrationSet(
        illuminant: .standardA, colorMatrix: Matrix3([0.8, -0.25, -0.05, -0.4, 1.3, 0.1, -0.05, 0.3, 0.5]),
        forwardMatrix: Matrix3([0.62, 0.28, 0.1, 0.26, 0.69, 0.05, 0.04, 0.11, 0.7]))

    /// Both calibrations (D65 given first, to check the order), a white balance and noise;
    /// black levels differ on each sample of the tile, to check their order.
    static func description(blackLevels: [Double] = [256, 257, 258, 259], whiteLevel: Int = 4095,
                            calibrations: [ColourCalibrationSet] = [d65, standardA],
                            asShotNeutral: SIMD3<Double>? = SIMD3(0.5, 1, 0.625),
                            activeArea: PixelRect? = nil, defaultCrop: PixelRect? = nil) -> RawDescription {
        RawDescription(uniqueCameraModel: "Reflex Reflex One", blackLevels: blackLevels, whiteLevel: whiteLevel,
                       calibrations: calibrations, asShotNeutral: asShotNeutral, baselineExposure: 0.25,
                       noiseProfile: NoiseProfile(scale: 2.0e-5, offset: 4.0e-7), activeArea: activeArea, defaultCrop: defaultCrop)
    }

    /// A smooth picture with colour in it: a diagonal gradient in each channel.
    static func picture(width: Int, height: Int) -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                pixels[i] = UInt8(x * 255 / max(1, width - 1))
                pixels[i + 1] = UInt8(y * 255 / max(1, height - 1))
                pixels[i + 2] = UInt8((x + y) * 255 / max(1, width + height - 2))
            }
        }
        return pixels
    }
}
