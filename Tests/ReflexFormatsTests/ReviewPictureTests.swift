import ReflexCore
@testable import ReflexFormats
import ReflexTestSupport
import Testing

/// Review's single view of a photo (issue 34): the camera's own JPEG decoded at a scale near
/// the panel's, fitted inside it and turned upright by its Orientation tag; a damaged file is
/// refused with a reason, not shown half.
@Suite struct ReviewPictureTests {
    /// A 1600×1200 photo, grey with a red square in its top-left corner as stored, written by
    /// the camera's JPEG encoder with `orientation` in its EXIF.
    static func photo(orientation: PhotoOrientation) throws -> [UInt8] {
        let (width, height) = (1600, 1200)
        var pixels = [UInt8](repeating: 110, count: width * height * 3)
        for y in 0..<200 { for x in 0..<200 { pixels[(y * width + x) * 3] = 250; pixels[(y * width + x) * 3 + 1] = 10; pixels[(y * width + x) * 3 + 2] = 10 } }
        var description = TestPhotos.photo
        description.orientation = orientation
        return try pixels.withUnsafeBufferPointer {
            try JPEGEncoder.encode(RGBImage(pixels: $0.baseAddress!, width: width, height: height), photo: description)
        }
    }

    static func isRed(_ pixel: UInt32) -> Bool { (pixel >> 16) & 0xFF > 200 && (pixel >> 8) & 0xFF < 60 }

    @Test(arguments: [
        (PhotoOrientation.upright, 1067, 800, "top-left"), (.upsideDown, 1067, 800, "bottom-right"),
        (.turnedLeft, 600, 800, "top-right"), (.turnedRight, 600, 800, "bottom-left"),
    ])
    func aPhotoIsFittedAndTurnedUpright(orientation: PhotoOrientation, width: Int, height: Int, corner: String) throws {
        let jpeg = try Self.photo(orientation: orientation)
        #expect(ExifOrientationReader.orientation(ofJPEG: jpeg) == orientation)
        let picture = try ReviewPicture.jpeg(jpeg, fitting: 1280, 800)
        #expect(picture.width == width && picture.height == height, "\(picture.width)×\(picture.height)")
        #expect(picture.fileWidth == 1600 && picture.fileHeight == 1200)
        let (left, right, top, bottom) = (10, picture.width - 11, 10, picture.height - 11)
        let corners = ["top-left": (left, top), "top-right": (right, top), "bottom-left": (left, bottom), "bottom-right": (right, bottom)]
        for (name, place) in corners {
            let red = Self.isRed(picture.pixels[place.1 * picture.width + place.0])
            #expect(red == (name == corner), "\(orientation): the \(name) corner")
        }
    }

    @Test func aTwelveMegapixelPhotoIsDecodedAtHalfItsSizeForA1280PanelNeverWhole() {
        #expect(ReviewPicture.decodedSize(width: 4056, height: 3040, atLeast: 1067, 800) == (2028, 1520))
        #expect(ReviewPicture.decodedSize(width: 4056, height: 3040, atLeast: 480, 360) == (507, 380))
        #expect(ReviewPicture.decodedSize(width: 640, height: 480, atLeast: 1067, 800) == (640, 480))
    }

    @Test func aDamagedFileIsRefusedWithAReason() throws {
        let jpeg = try Self.photo(orientation: .upright)
        #expect(throws: ReviewPicture.Failure.self) { try ReviewPicture.jpeg(Array(jpeg.prefix(jpeg.count / 2)), fitting: 1280, 800) }
        #expect(throws: ReviewPicture.Failure.self) { try ReviewPicture.jpeg([0xFF, 0xD8, 1, 2, 3], fitting: 1280, 800) }
        #expect(throws: ReviewPicture.Failure.self) { try ReviewPicture.jpeg([], fitting: 1280, 800) }
        // An EXIF block whose offsets point outside the file gives no orientation, not a crash.
        var broken = jpeg
        if let exif = (0..<(broken.count - 6)).first(where: { Array(broken[$0..<($0 + 4)]) == Array("Exif".utf8) }) {
            broken[exif + 10] = 0xFF; broken[exif + 11] = 0xFF; broken[exif + 12] = 0xFF; broken[exif + 13] = 0x7F
        }
        #expect(ExifOrientationReader.orientation(ofJPEG: broken) == nil)
    }

    /// A movie shows its first picture, fitted, with its length; a cut-off one is refused.
    @Test func aMovieShowsItsFirstPictureAndItsLength() throws {
        let movie = RealFrameDNGTests.folder + "/../people/vtest-0100-6s.mp4"
        let poster = try ReviewPicture.movie(path: movie, fitting: 1280, 800)
        #expect(poster.width == 1067 && poster.height == 800 && poster.fileWidth == 768 && poster.fileHeight == 576)
        #expect(abs((poster.movieSeconds ?? 0) - 6) < 0.1)
        #expect(poster.pixels.contains { $0 & 0xFF_FFFF != 0 }, "a picture, not black")
        let folder = TemporaryFolder()
        let bytes = try TemporaryFolder.read(movie)
        let cut = try folder.write(Array(bytes.prefix(2000)), to: "RFLX0001.MP4")
        #expect(throws: ReviewPicture.Failure.self) { try ReviewPicture.movie(path: cut, fitting: 1280, 800) }
    }
}
