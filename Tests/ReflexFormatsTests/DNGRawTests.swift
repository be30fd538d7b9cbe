import ReflexCore
import ReflexISP
import ReflexTestSupport
import Testing
@testable import ReflexFormats

/// DNGs read back for review: ours (uncompressed and lossless JPEG) to exactly the sensor's
/// values with the levels, white balance and colour they were written with; another camera's
/// (a Canon 550D's Magic Lantern DNG, 14-bit packed) as LibRaw reads it; a damaged one refused;
/// and developed to the colour it was shot in.
@Suite("DNG raw read back")
struct DNGRawTests {
    static let formats = [
        RawFormat(cfa: .rggb, bitsPerSample: 10, packing: .csi2Packed10),
        RawFormat(cfa: .gbrg, bitsPerSample: 12, packing: .csi2Packed12),
        RawFormat(cfa: .bggr, bitsPerSample: 8, packing: .bits8),
        RawFormat(cfa: .grbg, bitsPerSample: 16, packing: .unpacked16),
    ]

    @Test(arguments: formats, [DNGCompression.none, .losslessJPEG])
    func ourDNGsReadBackToTheSensorsValues(_ format: RawFormat, _ compression: DNGCompression) throws {
        let raw = SyntheticRaw(width: 598, height: 450, format: format, padding: 6)
        // An active area at an odd corner shifts the colour order the file states.
        let description = TestPhotos.description(blackLevels: [16, 17, 18, 19], whiteLevel: format.maximumValue,
                                                 activeArea: PixelRect(x: 1, y: 3, width: 590, height: 440),
                                                 defaultCrop: PixelRect(x: 2, y: 2, width: 580, height: 430))
        let dng = try EncodedDNG(raw, description: description, compression: compression)
        let read = try DNGRaw.read(dng.bytes)
        #expect(read.layout.width == 598 && read.layout.height == 450)
        #expect(read.layout.format.cfa == format.cfa, "the colour order from the frame's corner")
        #expect(SampleDifference.first(read.samples, raw.samples, width: 598) == nil)
        #expect(read.crop == PixelRect(x: 2, y: 4, width: 580, height: 430), "DefaultCrop in the active area, even")
        #expect(read.parameters.blackLevel == 18 && read.parameters.whiteLevel == format.maximumValue)
        #expect(read.parameters.whiteBalance == SIMD3(2, 1, 1.6), "AsShotNeutral's inverse")
        #expect(abs(read.parameters.digitalGain - FastMath.exp2(0.25)) < 1e-6, "BaselineExposure")
        let unbalance = Matrix3([0.5, 0, 0, 0, 1, 0, 0, 0, 0.625])
        let expected = (Matrix3.sRGBFromXYZ * TestPhotos.d65.colorMatrix.inverse! * unbalance).rowsNormalised.m
        #expect(zip(read.parameters.colorMatrix.m, expected).allSatisfy { abs($0 - $1) < 1e-5 }, "the daylight matrix")
        #expect(read.orientation == .upright)
    }

    @Test(.tags(.externalTool)) func anotherCamerasDNGReadsAsLibRawReadsIt() throws {
        let path = RealFrameDNGTests.folder + "/canon550d_magiclantern_colorchart.dng"
        let read = try DNGRaw.read(try TemporaryFolder.read(path))
        let folder = TemporaryFolder()
        let copy = try folder.write(try TemporaryFolder.read(path), to: "canon.dng")
        let run = try ChildProcess.run(["unprocessed_raw", copy])
        try #require(run.text.contains("Stored to file"), "\(run.allText)")
        let libRaw = try PGMImage(TemporaryFolder.read(copy + ".pgm"))
        #expect(libRaw.width == read.layout.width && libRaw.height == read.layout.height)
        #expect(SampleDifference.first(read.samples, libRaw.samples, width: libRaw.width) == nil, "14-bit packed samples")
        #expect(read.crop == PixelRect(x: 152, y: 26, width: 1734, height: 1156), "ActiveArea + DefaultCrop")
        #expect(read.layout.format.cfa == .rggb)
        #expect(read.parameters.blackLevel == 2056 && read.parameters.whiteLevel == 15000)
        // And it develops: a colour chart, not black.
        let picture = ReviewPicture.raw(read, fitting: 640, 480)
        #expect(picture.width == 640 && picture.height == 427)
        let mean = picture.pixels.reduce(0) { $0 + Int($1 >> 8 & 0xFF) } / picture.pixels.count
        #expect(mean > 40 && mean < 220, "green averages \(mean), \(read.parameters)")
    }

    @Test func aCutOrDamagedFileIsAnErrorNeverACrash() throws {
        let raw = SyntheticRaw(width: 300, height: 200, format: RawFormat(cfa: .rggb, bitsPerSample: 12, packing: .unpacked16))
        let dng = try EncodedDNG(raw, description: TestPhotos.description(), compression: .losslessJPEG)
        for length in [0, 7, 100, dng.bytes.count / 2] {
            #expect(throws: RawFileError.self, "cut to \(length) bytes") { try DNGRaw.read(Array(dng.bytes.prefix(length))) }
        }
        // Every 389th byte of the file spoiled in turn: read or refused, never a crash.
        for at in stride(from: 0, to: dng.bytes.count, by: 389) {
            var spoiled = dng.bytes
            spoiled[at] ^= 0xA5
            _ = try? DNGRaw.read(spoiled)
        }
        // A tile's data cut short is said, not read as zeros.
        let tile = raw.samples.withUnsafeBufferPointer {
            LosslessJPEGEncoder.encode($0.baseAddress!, width: 64, height: 64, rowStride: 300, precision: 12)
        }
        #expect(throws: RawFileError("the lossless JPEG's data is cut off")) {
            try Array(tile.prefix(tile.count / 2) + [0xFF, 0xD9]).withUnsafeBufferPointer { try LosslessJPEGDecoder.decode($0) }
        }
    }

    /// A grey lit by the light the photo was shot in (each colour's sample as AsShotNeutral
    /// says the sensor sees grey) develops grey, turned as the file says, in the single view
    /// and in the zoom's detail.
    @Test func greyShotInItsLightDevelopsGreyAndUpright() throws {
        let neutral = SIMD3<Double>(0.5, 1, 0.625)
        let (width, height) = (320, 240)
        let samples = (0..<(width * height)).map { index -> UInt16 in
            let (x, y) = (index % width, index / width)
            let level = [neutral.x, neutral.y, neutral.y, neutral.z][(y % 2) * 2 + x % 2]
            return UInt16(256 + level * 1400)
        }
        let raw = SyntheticRaw(width: width, height: height, format: RawFormat(cfa: .rggb, bitsPerSample: 12, packing: .unpacked16),
                               samples: samples)
        var photo = TestPhotos.photo
        photo.orientation = .turnedLeft
        let dng = try EncodedDNG(raw, photo: photo, description: TestPhotos.description(blackLevels: [256, 256, 256, 256],
                                                                                      asShotNeutral: neutral),
                                 compression: .losslessJPEG)
        let read = try DNGRaw.read(dng.bytes)
        #expect(read.orientation == .turnedLeft)
        let picture = ReviewPicture.raw(read, fitting: 400, 400)
        #expect(picture.width == 300 && picture.height == 400, "turned upright: taller than wide")
        #expect(picture.fileWidth == 320 && picture.fileHeight == 240 && !picture.isPreview)
        let detail = ReviewDetail.raw(read)
        #expect(detail.width == 240 && detail.height == 320 && detail.scale == 1)
        for (name, pixels) in [("picture", picture.pixels), ("detail", detail.pixels)] {
            let centre = pixels[pixels.count / 2 + 5]
            let (r, g, b) = (Int(centre >> 16 & 0xFF), Int(centre >> 8 & 0xFF), Int(centre & 0xFF))
            #expect(g > 60 && abs(r - g) <= 3 && abs(b - g) <= 3, "\(name): grey, not (\(r), \(g), \(b)), \(read.parameters)")
        }
    }
}
