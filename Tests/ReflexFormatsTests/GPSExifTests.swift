import ReflexTestSupport
import ReflexCore
import Testing
@testable import ReflexFormats

/// The GPS IFD in both files, read back by exiftool (and checked by its validator).
@Suite("GPS EXIF")
struct GPSExifTests {
    /// Somewhere south and west with an altitude below sea level, to check every sign.
    static let fix = GPSFix(latitude: -37.784788333, longitude: -175.314896667, altitude: -12.5, mode: .threeD,
                            time: UTCTime(year: 2024, month: 5, day: 6, hour: 5, minute: 38, second: 9.25),
                            horizontalError: 20.9, dilution: 1.1)

    static func photo(_ fix: GPSFix?) -> PhotoDescription {
        var photo = TestPhotos.photo
        photo.location = fix
        return photo
    }

    /// Every tag the issue lists, each as the fix says, in the given file.
    static func expectGPS(_ tags: ExiftoolTags, _ fix: GPSFix) {
        #expect(tags["GPS:GPSVersionID"] == "2 3 0 0")
        #expect(tags["GPS:GPSLatitudeRef"] == (fix.latitude < 0 ? "S" : "N"))
        #expect(tags["GPS:GPSLongitudeRef"] == (fix.longitude < 0 ? "W" : "E"))
        // To the tags' precision: seconds in ten-thousandths, 2.8e-8 degrees.
        #expect(abs((tags.number("GPS:GPSLatitude") ?? 0) - abs(fix.latitude)) < 3e-8, "\(tags["GPS:GPSLatitude"] ?? "")")
        #expect(abs((tags.number("GPS:GPSLongitude") ?? 0) - abs(fix.longitude)) < 3e-8)
        if let altitude = fix.altitude {
            #expect(tags["GPS:GPSAltitudeRef"] == (altitude < 0 ? "1" : "0"))
            #expect(tags.number("GPS:GPSAltitude") == abs(altitude))
        } else {
            #expect(tags["GPS:GPSAltitude"] == nil)
        }
        #expect(tags["GPS:GPSMeasureMode"] == (fix.mode == .threeD ? "3" : "2"))
        #expect(tags.number("GPS:GPSHPositioningError") == fix.horizontalError)
        #expect(tags.number("GPS:GPSDOP") == fix.dilution)
    }

    @Test(.tags(.externalTool)) func jpegCarriesTheFix() throws {
        let jpeg = try JPEGEncoderTests.Encoded(photo: Self.photo(Self.fix))
        let tags = try ExiftoolTags(file: jpeg.path)
        Self.expectGPS(tags, Self.fix)
        #expect(tags["GPS:GPSDateStamp"] == "2024:05:06")
        #expect(tags["GPS:GPSTimeStamp"] == "05:38:09.25")
        let validate = try ChildProcess.run(["exiftool", "-validate", "-warning", "-a", jpeg.path])
        #expect(validate.text.contains("Validate") && !validate.text.contains("Warning"), "\(validate.text)")
        // The Exif and picture tags are all still there.
        try DNGEncoderTests.expectPhotoExif(tags)
    }

    @Test(.tags(.externalTool)) func dngCarriesTheFix() throws {
        let dng = try EncodedDNG(SyntheticRaw(width: 640, height: 480, format: DNGEncoderTests.rggb12),
                                 photo: Self.photo(Self.fix))
        let tags = try dng.tags()
        Self.expectGPS(tags, Self.fix)
        #expect(tags["GPS:GPSDateStamp"] == "2024:05:06")
        #expect(tags["GPS:GPSTimeStamp"] == "05:38:09.25")
        #expect(try dng.validationWarnings() == [])
        try DNGEncoderTests.expectPhotoExif(tags)
        // The raw is still read as taken.
        #expect(EncodedDNG.value(of: "Image size:", in: try dng.rawIdentify()) == "640 x 480")
    }

    @Test(.tags(.externalTool)) func twoDFixWithoutTimeOrErrorsHasOnlyWhatItKnows() throws {
        let fix = GPSFix(latitude: 51.5007, longitude: 0.1246, mode: .twoD)
        let jpeg = try JPEGEncoderTests.Encoded(photo: Self.photo(fix))
        let tags = try ExiftoolTags(file: jpeg.path)
        Self.expectGPS(tags, fix)
        #expect(tags["GPS:GPSDateStamp"] == nil && tags["GPS:GPSTimeStamp"] == nil && tags["GPS:GPSAltitudeRef"] == nil)
    }

    @Test(.tags(.externalTool)) func noFixMeansNoGPSInEitherFile() throws {
        let jpeg = try JPEGEncoderTests.Encoded(photo: Self.photo(nil))
        let dng = try EncodedDNG(SyntheticRaw(width: 64, height: 48, format: DNGEncoderTests.rggb12), photo: Self.photo(nil))
        for path in [jpeg.path, dng.path] {
            let run = try ChildProcess.run(["exiftool", "-gps:all", path])
            #expect(run.status == 0 && run.text.isEmpty, "\(run.allText)")
            #expect(!(try ExiftoolTags(file: path).groups.contains("GPS")))
        }
    }

    @Test func secondsThatRoundToSixtyCarryIntoTheMinute() throws {
        // 10° 59' 59.99999": the seconds round to 60.0000, so the minute carries.
        let value = 10 + 59.0 / 60 + 59.99999 / 3600
        let dms = PhotoGPS.degreesMinutesSeconds(value)
        #expect(dms.map(\.numerator) == [11, 0, 0] && dms[2].denominator == 10_000)
        let exact = PhotoGPS.degreesMinutesSeconds(37.784788333)
        try #require(exact.count == 3)
        #expect(dms.count == 3 && abs(exact[0].value + exact[1].value / 60 + exact[2].value / 3600 - 37.784788333) < 3e-8)
    }
}
