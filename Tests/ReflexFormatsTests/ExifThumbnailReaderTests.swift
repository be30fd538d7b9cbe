import CTurboJPEG
import Testing
@testable import ReflexFormats

@Suite("EXIF thumbnail reader")
struct ExifThumbnailReaderTests {
    @Test func findsNothingWhereThereIsNothing() throws {
        #expect(ExifThumbnailReader.thumbnail(inJPEG: []) == nil)
        #expect(ExifThumbnailReader.thumbnail(inJPEG: [0xFF, 0xD8, 0xFF, 0xD9]) == nil)
        #expect(ExifThumbnailReader.thumbnail(inJPEG: Array("not a JPEG at all".utf8)) == nil)
        // TurboJPEG's own output: JFIF, no EXIF.
        let pixels = [UInt8](repeating: 128, count: 32 * 32 * 3)
        let plain = try pixels.withUnsafeBufferPointer {
            try TurboJPEGCompressor().compress(RGBImage(pixels: $0.baseAddress!, width: 32, height: 32), quality: 90)
        }
        #expect(ExifThumbnailReader.thumbnail(inJPEG: plain) == nil)
    }

    @Test func survivesDamage() throws {
        let pixels = TestPhotos.picture(width: 64, height: 48)
        let jpeg = try pixels.withUnsafeBufferPointer {
            try JPEGEncoder.encode(RGBImage(pixels: $0.baseAddress!, width: 64, height: 48), photo: TestPhotos.photo)
        }
        let thumbnail = try #require(ExifThumbnailReader.thumbnail(inJPEG: jpeg))
        #expect(thumbnail.first == 0xFF && thumbnail.last == 0xD9)
        // Cut inside the EXIF segment, or with its thumbnail's length made too long: nil, no crash.
        #expect(ExifThumbnailReader.thumbnail(inJPEG: Array(jpeg.prefix(600))) == nil)
        for cut in stride(from: 4, to: 900, by: 7) {
            _ = ExifThumbnailReader.thumbnail(inJPEG: Array(jpeg.prefix(cut)))
        }
        var corrupted = jpeg
        for index in stride(from: 12, to: 400, by: 3) { corrupted[index] ^= 0x5A }
        _ = ExifThumbnailReader.thumbnail(inJPEG: corrupted)
    }

    @Test func readsBigEndianExifToo() throws {
        // A hand-made Motorola-order APP1: IFD0 empty, IFD1 pointing at a 4-byte "JPEG".
        var tiff: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8]
        tiff += [0, 0, 0, 0, 0, 14]  // IFD0: no entries, next IFD at 14
        tiff += [0, 2]  // IFD1: two entries
        tiff += [0x02, 0x01, 0, 4, 0, 0, 0, 1, 0, 0, 0, 44]  // JPEGInterchangeFormat = 44
        tiff += [0x02, 0x02, 0, 4, 0, 0, 0, 1, 0, 0, 0, 4]  // JPEGInterchangeFormatLength = 4
        tiff += [0, 0, 0, 0]
        tiff += [0xFF, 0xD8, 0xFF, 0xD9]
        let app1 = try JPEGSegments.app1(Array("Exif".utf8) + [0, 0] + tiff)
        #expect(ExifThumbnailReader.thumbnail(inJPEG: [0xFF, 0xD8] + app1 + [0xFF, 0xD9]) == [0xFF, 0xD8, 0xFF, 0xD9])
    }
}
