import ReflexCore
import ReflexFormats
import ReflexISP
import Testing

/// Review's overlay reads each photo's own EXIF (issue 34): the camera's JPEG and DNG give
/// back what was written, a location when one was; a file without EXIF gives nothing.
@Suite struct ReviewPhotoInfoTests {
    static func jpeg(_ photo: PhotoDescription) throws -> [UInt8] {
        let pixels = [UInt8](repeating: 90, count: 64 * 48 * 3)
        return try pixels.withUnsafeBufferPointer {
            try JPEGEncoder.encode(RGBImage(pixels: $0.baseAddress!, width: 64, height: 48), photo: photo)
        }
    }

    @Test func theCameraJPEGsSettingsComeBack() throws {
        let info = try #require(ReviewPhotoInfo.ofJPEG(try Self.jpeg(TestPhotos.photo)))
        #expect(info.taken == "2024:05:06 07:08:09")
        #expect(abs((info.exposureSeconds ?? 0) - 1.0 / 125) < 1e-9 && info.iso == 400)
        #expect(abs((info.fNumber ?? 0) - 2.8) < 1e-6 && abs((info.exposureBias ?? 0) + 1.0 / 3) < 0.01)
        #expect(!info.hasLocation)
        var located = TestPhotos.photo
        located.location = GPSExifTests.fix
        #expect(ReviewPhotoInfo.ofJPEG(try Self.jpeg(located))?.hasLocation == true)
    }

    @Test func theCameraDNGsToo() throws {
        let raw = SyntheticRaw(width: 64, height: 48, format: RawFormat(cfa: .rggb, bitsPerSample: 12, packing: .unpacked16))
        let info = try #require(ReviewPhotoInfo.ofDNG(try EncodedDNG(raw).bytes))
        #expect(info.iso == 400 && info.taken == "2024:05:06 07:08:09")
    }

    @Test func aFileWithoutExifGivesNothing() {
        #expect(ReviewPhotoInfo.ofJPEG([0xFF, 0xD8, 0xFF, 0xD9]) == nil)
        #expect(ReviewPhotoInfo.ofDNG([0x49, 0x49, 42, 0, 0xFF, 0xFF, 0xFF, 0x7F]) == nil)
    }
}
