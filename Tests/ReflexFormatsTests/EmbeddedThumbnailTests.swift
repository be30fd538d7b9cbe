import ReflexCore
import ReflexFormats
import ReflexISP
import Testing

/// Review's index reads each file's own small picture, never the whole file (issue 34): the
/// EXIF thumbnail of the camera's JPEG (from its first kilobytes alone), the preview of its
/// DNG; a file without one, or a damaged one, gives none.
@Suite struct EmbeddedThumbnailTests {
    @Test func theJPEGsExifThumbnailFromTheFilesFirstBytes() throws {
        let jpeg = try ReviewPictureTests.photo(orientation: .upright)
        let whole = try #require(EmbeddedThumbnail.ofJPEG(jpeg))
        #expect(whole.width == 160 && whole.height == 120)
        // The red corner is in the thumbnail too.
        #expect(whole.rgb[0] > 200 && whole.rgb[1] < 60)
        // Its EXIF comes first: 64 KB of a 1600×1200 photo is enough.
        #expect(EmbeddedThumbnail.ofJPEG(Array(jpeg.prefix(64 * 1024))) == whole)
        #expect(EmbeddedThumbnail.ofJPEG(Array(jpeg.prefix(100))) == nil)
    }

    @Test func theDNGsPreview() throws {
        let raw = SyntheticRaw(width: 320, height: 240, format: RawFormat(cfa: .rggb, bitsPerSample: 12, packing: .unpacked16))
        let dng = try EncodedDNG(raw)
        let preview = try #require(EmbeddedThumbnail.ofDNG(dng.bytes))
        #expect(preview.width == 256 && preview.height == 192 && preview.rgb.count == 256 * 192 * 3)
        #expect(EmbeddedThumbnail.ofDNG(Array(dng.bytes.prefix(64))) == nil, "a cut-off file has none")
        #expect(EmbeddedThumbnail.ofDNG(Array(repeating: 0x49, count: 64)) == nil)
    }
}
