import ReflexTestSupport
import ReflexCore
import ReflexISP
import Testing
@testable import ReflexFormats

/// DNGs checked by the readers editors are built on: LibRaw (raw-identify, unprocessed_raw),
/// dcraw, exiftool (which also rewrites them) and libtiff's tiffinfo.
@Suite("DNG encoder")
struct DNGEncoderTests {
    static let rggb12 = RawFormat(cfa: .rggb, bitsPerSample: 12, packing: .unpacked16)

    @Test(.tags(.externalTool)) func syntheticFrameIsReadAsTaken() throws {
        let raw = SyntheticRaw(width: 640, height: 480, format: Self.rggb12)
        let dng = try EncodedDNG(raw)
        let libRaw = try dng.rawIdentify()
        #expect(EncodedDNG.value(of: "Image size:", in: libRaw) == "640 x 480")
        #expect(EncodedDNG.value(of: "Filter pattern:", in: libRaw) == "RGGBRGGBRGGBRGGB")
        #expect(EncodedDNG.value(of: "cblack[6 .. 9]:", in: libRaw) == "256 257 258 259")
        #expect(EncodedDNG.value(of: "ISO speed:", in: libRaw) == "400")
        #expect(EncodedDNG.value(of: "Shutter:", in: libRaw) == "1/125.0")
        #expect(EncodedDNG.value(of: "Aperture:", in: libRaw) == "f/2.8")
        #expect(EncodedDNG.value(of: "Timestamp:", in: libRaw) == "Mon May 6 07:08:09 2024")
        #expect(EncodedDNG.value(of: "DNG Illuminant 1:", in: libRaw) == "Illuminant A")
        #expect(EncodedDNG.value(of: "DNG Illuminant 2:", in: libRaw) == "D65")

        let dcraw = try dng.dcrawIdentify()
        #expect(EncodedDNG.value(of: "Image size:", in: dcraw) == "640 x 480")
        #expect(EncodedDNG.value(of: "Filter pattern:", in: dcraw) == "RG/GB")
        #expect(EncodedDNG.value(of: "ISO speed:", in: dcraw) == "400")
        #expect(EncodedDNG.value(of: "Shutter:", in: dcraw) == "1/125.0 sec")
        #expect(EncodedDNG.value(of: "Aperture:", in: dcraw) == "f/2.8")
        #expect(EncodedDNG.value(of: "Camera:", in: dcraw) == "Reflex One")
        let levels = try dng.dcrawLevels()
        #expect(levels.white == 4095)
        #expect((256...259).contains(levels.black), "dcraw's darkness \(levels.black)")

        let decoded = try dng.libRawSamples()
        #expect(decoded.width == 640 && decoded.height == 480)
        #expect(SampleDifference.first(decoded.samples, raw.samples, width: 640) == nil)
    }

    @Test(.tags(.externalTool)) func exiftoolFindsNoFaultAndCanEditIt() throws {
        let dng = try EncodedDNG(SyntheticRaw(width: 640, height: 480, format: Self.rggb12))
        #expect(try dng.validationWarnings() == [])
        let copy = try dng.folder.write(dng.bytes, to: "copy.dng")
        let edit = try ChildProcess.run(["exiftool", "-overwrite_original", "-Artist=x", copy])
        #expect(edit.status == 0 && edit.text.contains("1 image files updated"), "\(edit.allText)")
        #expect(!edit.allText.contains("Error") && !edit.allText.contains("Warning"), "\(edit.allText)")
        #expect(try ExiftoolTags(file: copy)["IFD0:Artist"] == "x")
        let revalidated = try ChildProcess.run(["exiftool", "-validate", "-warning", "-a", copy])
        #expect(revalidated.text.contains("Validate") && !revalidated.text.contains("Warning"), "\(revalidated.text)")
    }

    @Test(.tags(.externalTool)) func tagsSayWhatTheDescriptionSays() throws {
        let dng = try EncodedDNG(SyntheticRaw(width: 640, height: 480, format: Self.rggb12))
        let tags = try dng.tags()
        #expect(tags["IFD0:SubfileType"] == "1")
        #expect(tags["IFD0:ImageWidth"] == "256" && tags["IFD0:ImageHeight"] == "192")
        #expect(tags["IFD0:PhotometricInterpretation"] == "2" && tags["IFD0:SamplesPerPixel"] == "3")
        #expect(tags["IFD0:DNGVersion"] == "1 4 0 0" && tags["IFD0:DNGBackwardVersion"] == "1 1 0 0")
        #expect(tags["IFD0:UniqueCameraModel"] == "Reflex Reflex One")
        #expect(tags["IFD0:Make"] == "Reflex" && tags["IFD0:Model"] == "Reflex One")
        #expect(tags["IFD0:Software"] == "Reflex 0.1" && tags["IFD0:Orientation"] == "1")
        #expect(tags["IFD0:ModifyDate"] == "2024:05:06 07:08:09")
        #expect(tags["IFD0:BaselineExposure"] == "0.25")
        #expect(tags["SubIFD:SubfileType"] == "0")
        #expect(tags["SubIFD:PhotometricInterpretation"] == "32803" && tags["SubIFD:SamplesPerPixel"] == "1")
        #expect(tags["SubIFD:BitsPerSample"] == "16" && tags["SubIFD:Compression"] == "1")
        #expect(tags["SubIFD:CFARepeatPatternDim"] == "2 2" && tags["SubIFD:CFAPattern2"] == "0 1 1 2")
        #expect(tags["SubIFD:CFAPlaneColor"] == "0 1 2" && tags["SubIFD:CFALayout"] == "1")
        #expect(tags["SubIFD:BlackLevelRepeatDim"] == "2 2" && tags["SubIFD:BlackLevel"] == "256 257 258 259")
        #expect(tags["SubIFD:WhiteLevel"] == "4095")
        #expect(tags["SubIFD:DefaultCropOrigin"] == "0 0" && tags["SubIFD:DefaultCropSize"] == "640 480")
        #expect(tags["SubIFD:ActiveArea"] == nil)
        #expect(tags["SubIFD:TileWidth"] == nil && tags["SubIFD:TileOffsets"] == nil)
        // Strips of a few hundred KB: 204 rows of 1280 bytes.
        #expect(tags["SubIFD:RowsPerStrip"] == "204")
        #expect(tags["SubIFD:StripByteCounts"] == "261120 261120 92160")
        try Self.expectPhotoExif(tags)
    }

    /// The Exif IFD the DNG and the JPEG share.
    static func expectPhotoExif(_ tags: ExiftoolTags, group: String = "ExifIFD") throws {
        #expect(tags[group + ":ExposureTime"] == "0.008")
        #expect(tags[group + ":FNumber"] == "2.8")
        #expect(tags[group + ":ISO"] == "400")
        #expect(tags[group + ":ExposureProgram"] == "2" && tags[group + ":ExposureMode"] == "0")
        #expect(tags[group + ":ExposureCompensation"] == "-0.3333333333")
        #expect(tags[group + ":MeteringMode"] == "2" && tags[group + ":WhiteBalance"] == "0")
        #expect(tags[group + ":FocalLength"] == "4.4" && tags[group + ":FocalLengthIn35mmFormat"] == "28")
        #expect(tags[group + ":DateTimeOriginal"] == "2024:05:06 07:08:09")
        #expect(tags[group + ":SubSecTimeOriginal"] == "042" && tags[group + ":OffsetTimeOriginal"] == "+01:30")
        #expect(tags["Composite:SubSecDateTimeOriginal"] == "2024:05:06 07:08:09.042+01:30")
        #expect(tags[group + ":ExifVersion"] == "0232")
        #expect(tags[group + ":LensModel"] == "4.4mm f/2.8")
    }

    @Test(.tags(.externalTool)) func rationalsAreExactFractions() throws {
        let dng = try EncodedDNG(SyntheticRaw(width: 64, height: 48, format: Self.rggb12))
        let verbose = try ChildProcess.run(["exiftool", "-v3", dng.path]).text
        #expect(verbose.contains("ExposureTime = 0.008 (1/125)"), "not 1/125")
        #expect(verbose.contains("FNumber = 2.8 (14/5)"))
        #expect(verbose.contains("ExposureCompensation = -0.3333333333 (-1/3)"))
    }

    @Test(.tags(.externalTool)) func onlyTheMainDirectoryTheRawAndExif() throws {
        let dng = try EncodedDNG(SyntheticRaw(width: 640, height: 480, format: Self.rggb12))
        let info = try ChildProcess.run(["tiffinfo", dng.path])
        #expect(info.status == 0)
        #expect(info.text.split(separator: "\n").filter { $0.hasPrefix("=== TIFF directory") }.count == 1,
                "tiffinfo: \(info.text)")
        #expect(Self.occurrences(of: "--- SubIFD 0 of chain 0 ", in: info.text) == 1)
        #expect(Self.occurrences(of: "--- SubIFD 1 ", in: info.text) == 0)
        #expect(Self.occurrences(of: "--- EXIF directory", in: info.text) == 1)
        #expect(Self.occurrences(of: "TIFF Directory at offset", in: info.text) == 3)
        let groups = try dng.tags().groups
        #expect(groups.isSuperset(of: ["IFD0", "SubIFD", "ExifIFD"]))
        #expect(!groups.contains("IFD1") && !groups.contains("SubIFD1") && !groups.contains("GPS"), "\(groups)")
    }

    @Test(.tags(.externalTool), arguments: CFAPattern.allCases)
    func everyFilterOrder(_ cfa: CFAPattern) throws {
        let format = RawFormat(cfa: cfa, bitsPerSample: 12, packing: .unpacked16)
        let raw = SyntheticRaw(width: 320, height: 240, format: format)
        let dng = try EncodedDNG(raw)
        let order = cfa.rawValue.uppercased()
        let libRawOrder = String(repeating: order, count: 4)
        #expect(EncodedDNG.value(of: "Filter pattern:", in: try dng.rawIdentify()) == libRawOrder)
        let dcrawOrder = String(order.prefix(2)) + "/" + String(order.suffix(2))
        #expect(EncodedDNG.value(of: "Filter pattern:", in: try dng.dcrawIdentify()) == dcrawOrder)
        #expect(SampleDifference.first(try dng.libRawSamples().samples, raw.samples, width: raw.width) == nil)
    }

    @Test(.tags(.externalTool), arguments: [
        RawFormat(cfa: .rggb, bitsPerSample: 10, packing: .csi2Packed10),
        RawFormat(cfa: .gbrg, bitsPerSample: 12, packing: .csi2Packed12),
        RawFormat(cfa: .bggr, bitsPerSample: 8, packing: .bits8),
        RawFormat(cfa: .grbg, bitsPerSample: 10, packing: .unpacked16),
    ])
    func everyPackingUnpacksToTheSameValues(_ format: RawFormat) throws {
        // 318 wide: not a whole number of RAW10 groups; rows padded as V4L2 drivers do.
        let raw = SyntheticRaw(width: 318, height: 240, format: format, padding: 6)
        let dng = try EncodedDNG(raw, description: TestPhotos.description(blackLevels: [16, 16, 16, 16],
                                                                          whiteLevel: format.maximumValue))
        let decoded = try dng.libRawSamples()
        #expect(decoded.width == 318 && decoded.height == 240)
        #expect(SampleDifference.first(decoded.samples, raw.samples, width: raw.width) == nil, "\(format)")
        #expect(try dng.dcrawLevels().white == format.maximumValue)
        #expect(try dng.validationWarnings() == [])
    }

    @Test(.tags(.externalTool)) func twoCalibrationsInTheirOrderWithForwardMatrices() throws {
        let tags = try EncodedDNG(SyntheticRaw(width: 64, height: 48, format: Self.rggb12)).tags()
        #expect(tags["IFD0:CalibrationIlluminant1"] == "17" && tags["IFD0:CalibrationIlluminant2"] == "21")
        #expect(Self.numbers(tags["IFD0:ColorMatrix1"]) == TestPhotos.standardA.colorMatrix.m.map { Float($0) })
        #expect(Self.numbers(tags["IFD0:ColorMatrix2"]) == TestPhotos.d65.colorMatrix.m.map { Float($0) })
        #expect(Self.numbers(tags["IFD0:ForwardMatrix1"]) == TestPhotos.standardA.forwardMatrix!.m.map { Float($0) })
        #expect(Self.numbers(tags["IFD0:ForwardMatrix2"]) == TestPhotos.d65.forwardMatrix!.m.map { Float($0) })
        #expect(Self.numbers(tags["IFD0:AsShotNeutral"]) == [0.5, 1, 0.625])
        #expect(tags["IFD0:NoiseProfile"] == "2e-05 4e-07")
    }

    @Test(.tags(.externalTool)) func oneCalibrationAloneAndNoWhiteBalance() throws {
        let alone = ColourCalibrationSet(illuminant: .d65, colorMatrix: TestPhotos.d65.colorMatrix)
        let dng = try EncodedDNG(SyntheticRaw(width: 64, height: 48, format: Self.rggb12),
                                 description: TestPhotos.description(calibrations: [alone], asShotNeutral: nil))
        let tags = try dng.tags()
        #expect(tags["IFD0:CalibrationIlluminant1"] == "21")
        #expect(Self.numbers(tags["IFD0:ColorMatrix1"]) == TestPhotos.d65.colorMatrix.m.map { Float($0) })
        #expect(tags["IFD0:ColorMatrix2"] == nil && tags["IFD0:CalibrationIlluminant2"] == nil)
        #expect(tags["IFD0:ForwardMatrix1"] == nil && tags["IFD0:ForwardMatrix2"] == nil)
        #expect(tags["IFD0:AsShotNeutral"] == nil)
        #expect(tags["IFD0:NoiseProfile"] != nil)
        #expect(try dng.validationWarnings() == [])
        #expect(EncodedDNG.value(of: "DNG Illuminant 1:", in: try dng.rawIdentify()) == "D65")
    }

    @Test(.tags(.externalTool)) func activeAreaAndCropShiftThePatterns() throws {
        // The active area starts on an odd column: DNG's CFA and black-level patterns start
        // at its corner, where an RGGB sensor is GRBG.
        let description = TestPhotos.description(activeArea: PixelRect(x: 1, y: 2, width: 636, height: 476),
                                                 defaultCrop: PixelRect(x: 8, y: 6, width: 620, height: 464))
        let dng = try EncodedDNG(SyntheticRaw(width: 640, height: 480, format: Self.rggb12), description: description)
        let tags = try dng.tags()
        #expect(tags["SubIFD:ActiveArea"] == "2 1 478 637")
        #expect(tags["SubIFD:CFAPattern2"] == "1 0 2 1")
        #expect(tags["SubIFD:BlackLevel"] == "257 256 259 258")
        #expect(tags["SubIFD:DefaultCropOrigin"] == "8 6" && tags["SubIFD:DefaultCropSize"] == "620 464")
        // dcraw starts its picture at column 1 (GRBG there); LibRaw moves an odd margin to the
        // next even column and drops one, so it starts at column 2, RGGB again.
        let dcraw = try dng.dcrawIdentify()
        #expect(EncodedDNG.value(of: "Image size:", in: dcraw) == "636 x 476")
        #expect(EncodedDNG.value(of: "Filter pattern:", in: dcraw) == "GR/BG")
        let libRaw = try dng.rawIdentify()
        #expect(EncodedDNG.value(of: "Image size:", in: libRaw) == "635 x 476")
        #expect(EncodedDNG.value(of: "Filter pattern:", in: libRaw) == "RGGBRGGBRGGBRGGB")
        let expected = SyntheticRaw(width: 640, height: 480, format: Self.rggb12).samples
        #expect(SampleDifference.first(try dng.libRawSamples().samples, expected, width: 640) == nil)
        #expect(try dng.validationWarnings() == [])
    }

    @Test(.tags(.externalTool)) func evenActiveAreaKeepsTheSensorsOrder() throws {
        let description = TestPhotos.description(activeArea: PixelRect(x: 2, y: 2, width: 636, height: 476))
        let dng = try EncodedDNG(SyntheticRaw(width: 640, height: 480, format: Self.rggb12), description: description)
        let tags = try dng.tags()
        #expect(tags["SubIFD:CFAPattern2"] == "0 1 1 2" && tags["SubIFD:BlackLevel"] == "256 257 258 259")
        #expect(tags["SubIFD:DefaultCropOrigin"] == "0 0" && tags["SubIFD:DefaultCropSize"] == "636 476")
        #expect(EncodedDNG.value(of: "Image size:", in: try dng.rawIdentify()) == "636 x 476")
    }

    @Test func refusesWhatEditorsWouldMisread() throws {
        let raw = SyntheticRaw(width: 64, height: 48, format: Self.rggb12)
        #expect(throws: PhotoEncodingError.self) {
            try EncodedDNG(raw, description: TestPhotos.description(whiteLevel: 0))
        }
        #expect(throws: PhotoEncodingError.self) {
            try EncodedDNG(raw, description: TestPhotos.description(blackLevels: [5000, 0, 0, 0]))
        }
        #expect(throws: PhotoEncodingError.self) {
            let outside = PixelRect(x: 0, y: 0, width: 65, height: 48)
            _ = try EncodedDNG(raw, description: TestPhotos.description(activeArea: outside))
        }
        #expect(throws: PhotoEncodingError.self) {
            let outside = PixelRect(x: 10, y: 0, width: 60, height: 48)
            _ = try EncodedDNG(raw, description: TestPhotos.description(defaultCrop: outside))
        }
        #expect(throws: PhotoEncodingError.self) {
            try EncodedDNG(raw, description: TestPhotos.description(calibrations: [TestPhotos.d65, TestPhotos.d65]))
        }
    }

    @Test(.tags(.externalTool)) func manualExposureAndUnknownLens() throws {
        var photo = TestPhotos.photo
        (photo.fNumber, photo.focalLengthMillimetres, photo.focalLength35mm, photo.lensModel) = (nil, nil, nil, nil)
        (photo.exposureProgram, photo.whiteBalanceManual, photo.orientation) = (.manual, true, .turnedLeft)
        (photo.exposureSeconds, photo.exposureBias, photo.meteringMode) = (2.5, 0, .spot)
        let dng = try EncodedDNG(SyntheticRaw(width: 64, height: 48, format: Self.rggb12), photo: photo)
        let tags = try dng.tags()
        #expect(tags["ExifIFD:ExposureProgram"] == "1" && tags["ExifIFD:ExposureMode"] == "1")
        #expect(tags["ExifIFD:WhiteBalance"] == "1" && tags["ExifIFD:MeteringMode"] == "3")
        #expect(tags["ExifIFD:ExposureTime"] == "2.5" && tags["ExifIFD:ExposureCompensation"] == "0")
        #expect(tags["IFD0:Orientation"] == "6")
        for absent in ["FNumber", "FocalLength", "FocalLengthIn35mmFormat", "LensModel"] {
            #expect(tags["ExifIFD:" + absent] == nil, "\(absent) is written though unknown")
        }
        #expect(try dng.validationWarnings() == [])
        #expect(EncodedDNG.value(of: "Shutter:", in: try dng.dcrawIdentify()) == "2.5 sec")
    }

    @Test(.tags(.externalTool)) func previewIsIFD0sImageWhateverItsRowPadding() throws {
        let (width, height, stride) = (100, 75, 100 * 3 + 5)
        let picture = TestPhotos.picture(width: width, height: height)
        var padded = [UInt8](repeating: 0xEE, count: stride * height)
        for y in 0..<height {
            padded.replaceSubrange((y * stride)..<(y * stride + width * 3),
                                   with: picture[(y * width * 3)..<((y + 1) * width * 3)])
        }
        let raw = SyntheticRaw(width: 64, height: 48, format: Self.rggb12)
        let bytes = try raw.bytes.withUnsafeBytes { frame in
            try padded.withUnsafeBufferPointer { pixels in
                try DNGEncoder.encode(raw: frame.baseAddress!, layout: raw.layout, photo: TestPhotos.photo,
                                      rawDescription: TestPhotos.description(),
                                      preview: RGBImage(pixels: pixels.baseAddress!, width: width, height: height,
                                                        stride: stride))
            }
        }
        let folder = TemporaryFolder()
        let tags = try ExiftoolTags(file: try folder.write(bytes, to: "preview.dng"))
        #expect(tags["IFD0:ImageWidth"] == "100" && tags["IFD0:ImageHeight"] == "75")
        let offsets = try #require(tags["IFD0:StripOffsets"]).split(separator: " ").compactMap { Int($0) }
        let counts = try #require(tags["IFD0:StripByteCounts"]).split(separator: " ").compactMap { Int($0) }
        let stored = zip(offsets, counts).flatMap { bytes[$0..<($0 + $1)] }
        #expect(stored == picture, "IFD0's strips are not the preview's pixels")
    }

    @Test func sameInputSameBytes() throws {
        let raw = SyntheticRaw(width: 64, height: 48, format: Self.rggb12)
        #expect(try EncodedDNG(raw).bytes == EncodedDNG(raw).bytes)
    }

    private static func occurrences(of piece: String, in text: String) -> Int {
        text.ranges(of: piece).count
    }

    private static func numbers(_ text: String?) -> [Float]? {
        text.map { $0.split(separator: " ").compactMap { Float($0) } }
    }
}
