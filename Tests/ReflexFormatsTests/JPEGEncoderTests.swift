import ReflexTestSupport
import ReflexISP
import Testing
@testable import ReflexFormats

/// JPEGs checked with jpeginfo, exiftool and TurboJPEG's decoder.
@Suite("JPEG encoder")
struct JPEGEncoderTests {
    /// A 320×240 picture, rows padded (a stride wider than the pixels), encoded and written.
    struct Encoded {
        let folder: TemporaryFolder
        let path: String
        let bytes: [UInt8]
        let picture: [UInt8]

        init(width: Int = 320, height: Int = 240, photo: PhotoDescription = TestPhotos.photo, quality: Int = 92,
             fastDCT: Bool = false) throws {
            let stride = width * 3 + 9
            var padded = [UInt8](repeating: 0xEE, count: stride * height)
            picture = TestPhotos.picture(width: width, height: height)
            for y in 0..<height {
                let row = picture[(y * width * 3)..<((y + 1) * width * 3)]
                padded.replaceSubrange((y * stride)..<(y * stride + width * 3), with: row)
            }
            bytes = try padded.withUnsafeBufferPointer {
                try JPEGEncoder.encode(RGBImage(pixels: $0.baseAddress!, width: width, height: height, stride: stride),
                                       quality: quality, photo: photo, fastDCT: fastDCT)
            }
            folder = TemporaryFolder()
            path = try folder.write(bytes, to: "photo.jpg")
        }
    }

    @Test(.tags(.externalTool)) func jpeginfoFindsItWhole() throws {
        let jpeg = try Encoded()
        let check = try ChildProcess.run(["jpeginfo", "-c", jpeg.path])
        #expect(check.status == 0 && check.text.contains("OK") && check.text.contains("320 x  240"), "\(check.allText)")
        #expect(check.text.contains("Exif"))
    }

    @Test(.tags(.externalTool)) func exiftoolReadsEveryTag() throws {
        let jpeg = try Encoded()  // kept: its folder goes with it
        let tags = try ExiftoolTags(file: jpeg.path)
        #expect(tags["IFD0:Make"] == "Reflex" && tags["IFD0:Model"] == "Reflex One")
        #expect(tags["IFD0:Software"] == "Reflex 0.1" && tags["IFD0:ModifyDate"] == "2024:05:06 07:08:09")
        #expect(tags["IFD0:Orientation"] == "1" && tags["IFD0:YCbCrPositioning"] == "1")
        #expect(tags["IFD0:XResolution"] == "72" && tags["IFD0:YResolution"] == "72")
        #expect(tags["IFD0:ResolutionUnit"] == "2")
        try DNGEncoderTests.expectPhotoExif(tags)
        #expect(tags["ExifIFD:FlashpixVersion"] == "0100" && tags["ExifIFD:ColorSpace"] == "1")
        #expect(tags["ExifIFD:ComponentsConfiguration"] == "1 2 3 0")
        #expect(tags["ExifIFD:ExifImageWidth"] == "320" && tags["ExifIFD:ExifImageHeight"] == "240")
        #expect(tags["IFD1:Compression"] == "6" && tags["IFD1:ResolutionUnit"] == "2")
        #expect(tags["IFD1:XResolution"] == "72" && tags["IFD1:YResolution"] == "72")
        #expect((tags.number("IFD1:ThumbnailLength") ?? 0) > 0)
        #expect(tags["File:ImageWidth"] == "320" && tags["File:ImageHeight"] == "240")
        #expect(tags["File:YCbCrSubSampling"] == "2 2")
    }

    @Test(.tags(.externalTool)) func exiftoolFindsNoFault() throws {
        let jpeg = try Encoded()
        let run = try ChildProcess.run(["exiftool", "-validate", "-warning", "-a", jpeg.path])
        #expect(run.text.contains("Validate") && !run.text.contains("Warning"), "\(run.text)")
    }

    @Test(.tags(.externalTool)) func noGPSAtAll() throws {
        let jpeg = try Encoded()
        let run = try ChildProcess.run(["exiftool", "-gps:all", jpeg.path])
        #expect(run.status == 0 && run.text.isEmpty, "\(run.allText)")
        #expect(!(try ExiftoolTags(file: jpeg.path).groups.contains("GPS")))
    }

    @Test(.tags(.externalTool)) func thumbnailIsAWhole160x120JPEG() throws {
        let jpeg = try Encoded()
        let extracted = try ChildProcess.run(["exiftool", "-b", "-ThumbnailImage", jpeg.path]).output
        let path = try jpeg.folder.write(extracted, to: "thumbnail.jpg")
        let check = try ChildProcess.run(["jpeginfo", "-c", path])
        #expect(check.text.contains("160 x  120") && check.text.contains("OK"), "\(check.allText)")
        // An EXIF thumbnail carries no application segments of its own.
        #expect(JPEGSegments.header(of: extracted)?.contains { (0xE0...0xEF).contains($0.marker) } == false)
        #expect(ExifThumbnailReader.thumbnail(inJPEG: jpeg.bytes) == extracted)
        let decoded = try DecodedJPEG(extracted)
        #expect(decoded.width == 160 && decoded.height == 120)
        // 4:3 like the picture, so no bars: the gradient's corners are there.
        #expect(decoded.mean(channel: 0, x: 150..<160, y: 50..<70) > 200)
        #expect(decoded.mean(channel: 0, x: 0..<10, y: 50..<70) < 30)
    }

    @Test func exifComesFirstAndFitsItsSegment() throws {
        let jpeg = try Encoded()
        let segments = try #require(JPEGSegments.header(of: jpeg.bytes))
        let first = try #require(segments.first)
        #expect(first.marker == 0xE1 && first.range.lowerBound == 2)
        #expect(jpeg.bytes[first.payload].starts(with: Array("Exif".utf8) + [0, 0]))
        #expect(first.range.count - 2 < 65536)
        #expect(!segments.contains { $0.marker == 0xE0 }, "Exif and JFIF cannot both come first")
        #expect(segments.filter { $0.marker == 0xE1 }.count == 1)
    }

    @Test func decodesToTheSamePicture() throws {
        let jpeg = try Encoded()
        let decoded = try DecodedJPEG(jpeg.bytes)
        #expect(decoded.width == 320 && decoded.height == 240)
        let error = zip(decoded.rgb, jpeg.picture).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        let mean = Double(error) / Double(jpeg.picture.count)
        #expect(mean < 2, "mean error \(mean) levels")
    }

    @Test func accurateDCTUnlessFastIsAskedFor() throws {
        // TurboJPEG's own default below quality 96 is the fast DCT: the encoder must ask for
        // the accurate one.
        let accurate = try Encoded(), fast = try Encoded(fastDCT: true)
        let same = accurate.bytes == fast.bytes
        #expect(!same, "the fast DCT made the same file")
        func meanError(_ jpeg: Encoded) throws -> Double {
            let decoded = try DecodedJPEG(jpeg.bytes)
            let error = zip(decoded.rgb, jpeg.picture).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
            return Double(error) / Double(jpeg.picture.count)
        }
        let (accurateError, fastError) = (try meanError(accurate), try meanError(fast))
        #expect(accurateError < fastError, "accurate \(accurateError), fast \(fastError)")
        #expect(fastError < 3)
    }

    @Test(.tags(.externalTool)) func portraitPictureHasABlackBarredThumbnail() throws {
        var photo = TestPhotos.photo
        photo.orientation = .turnedLeft
        let jpeg = try Encoded(width: 120, height: 200, photo: photo)
        let tags = try ExiftoolTags(file: jpeg.path)
        #expect(tags["IFD0:Orientation"] == "6")
        #expect(tags["ExifIFD:ExifImageWidth"] == "120" && tags["ExifIFD:ExifImageHeight"] == "200")
        let thumbnail = try DecodedJPEG(try #require(ExifThumbnailReader.thumbnail(inJPEG: jpeg.bytes)))
        #expect(thumbnail.width == 160 && thumbnail.height == 120)
        // 120×200 fitted in 160×120 is 72×120 in the middle: black bars of 44 columns each side.
        for channel in 0..<3 {
            #expect(thumbnail.mean(channel: channel, x: 0..<40, y: 0..<120) < 4)
            #expect(thumbnail.mean(channel: channel, x: 120..<160, y: 0..<120) < 4)
        }
        #expect(thumbnail.mean(channel: 1, x: 50..<110, y: 100..<120) > 200, "the picture's bottom is green")
    }

    @Test func refusesQualityOutsideItsRange() throws {
        #expect(throws: PhotoEncodingError.self) { try Encoded(quality: 0) }
        #expect(throws: PhotoEncodingError.self) { try Encoded(quality: 101) }
    }

    @Test func anAPP1SegmentHoldsAtMost65533Bytes() throws {
        #expect(try JPEGSegments.app1([UInt8](repeating: 1, count: 65533)).count == 65537)
        #expect(throws: PhotoEncodingError.self) { try JPEGSegments.app1([UInt8](repeating: 1, count: 65534)) }
    }
}
