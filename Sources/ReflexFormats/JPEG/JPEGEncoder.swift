import CExif

/// A rendered photo as a JPEG with EXIF (2.32), made in memory: TurboJPEG compresses the
/// picture and a 160×120 thumbnail, libexif builds the EXIF (IFD0, the Exif and GPS IFDs both
/// files share, IFD1 with the thumbnail), and the APP1 segment goes right after SOI in place of
/// TurboJPEG's JFIF APP0 — TurboJPEG 2.1 cannot write an APP1 itself.
public enum JPEGEncoder {
    /// EXIF's thumbnail size (DCF's 160×120); other aspects are letterboxed in black.
    public static let thumbnailWidth = 160, thumbnailHeight = 120
    /// Enough for a sharp thumbnail, small enough to keep the APP1 segment far below 64 KB.
    static let thumbnailQuality = 80

    /// The JPEG of `image` at `quality` (1…100), 4:2:0, with the accurate DCT unless `fastDCT`.
    /// `thumbnailSource`: a smaller copy of the picture to make the thumbnail from (the
    /// camera has one: the DNG's preview), sparing a pass over the whole picture.
    public static func encode(_ image: RGBImage, quality: Int = 92, photo: PhotoDescription, fastDCT: Bool = false,
                              thumbnailSource: RGBImage? = nil) throws(PhotoEncodingError) -> [UInt8] {
        let compressor = try TurboJPEGCompressor()
        let picture = try compressor.compress(image, quality: quality, fastDCT: fastDCT)
        let thumbnail = try makeThumbnail(of: thumbnailSource ?? image, with: compressor)
        let exifBody = try exif(photo, width: image.width, height: image.height, thumbnail: thumbnail)
        let app1 = try JPEGSegments.app1(exifBody)
        return try JPEGSegments.replacingApplicationSegments(of: picture, with: app1)
    }

    private static func makeThumbnail(of image: RGBImage,
                                      with compressor: TurboJPEGCompressor) throws(PhotoEncodingError) -> [UInt8] {
        let pixels = ImageDownscaler.letterboxed(image, width: thumbnailWidth, height: thumbnailHeight)
        let compressed = pixels.withUnsafeBufferPointer { buffer in
            Result { () throws(PhotoEncodingError) in
                let image = RGBImage(pixels: buffer.baseAddress!, width: thumbnailWidth, height: thumbnailHeight)
                return try compressor.compress(image, quality: thumbnailQuality)
            }
        }
        return try JPEGSegments.replacingApplicationSegments(of: compressed.get(), with: [])
    }

    private static func exif(_ photo: PhotoDescription, width: Int, height: Int,
                             thumbnail: [UInt8]) throws(PhotoEncodingError) -> [UInt8] {
        let block = try ExifBlock()
        try block.add(mainDirectory(photo), to: EXIF_IFD_0)
        try block.add(PhotoExif.exifDirectory(photo) + pictureFields(width: width, height: height), to: EXIF_IFD_EXIF)
        if let location = photo.location { try block.add(PhotoGPS.directory(location), to: EXIF_IFD_GPS) }
        block.fix()
        try block.add(thumbnailDirectory(), to: EXIF_IFD_1)
        try block.setThumbnail(thumbnail)
        return try block.save()
    }

    /// IFD0: who made the picture, when, how to turn it, and its (nominal) resolution.
    private static func mainDirectory(_ photo: PhotoDescription) -> [ExifField] {
        [
            ExifField(0x010F, .text(PhotoExif.ascii(photo.make))),  // Make
            ExifField(0x0110, .text(PhotoExif.ascii(photo.model))),  // Model
            ExifField(0x0112, .short(photo.orientation.rawValue)),  // Orientation
        ] + resolution() + [
            ExifField(0x0131, .text(PhotoExif.ascii(photo.software))),  // Software
            ExifField(0x0132, .text(photo.captured.exifDateTime)),  // DateTime
            ExifField(0x0213, .short(1)),  // YCbCrPositioning: centred, as libjpeg subsamples
        ]
    }

    /// The Exif IFD's tags about the compressed picture itself.
    private static func pictureFields(width: Int, height: Int) -> [ExifField] {
        [
            ExifField(0x9101, .undefined([1, 2, 3, 0])),  // ComponentsConfiguration: Y Cb Cr
            ExifField(0xA000, .undefined(Array("0100".utf8))),  // FlashpixVersion
            ExifField(0xA001, .short(1)),  // ColorSpace: sRGB
            ExifField(0xA002, .long(UInt32(width))),  // PixelXDimension
            ExifField(0xA003, .long(UInt32(height))),  // PixelYDimension
        ]
    }

    /// IFD1: the thumbnail is a JPEG (libexif adds where it is and its length).
    private static func thumbnailDirectory() -> [ExifField] {
        [ExifField(0x0103, .short(6))] + resolution()  // Compression: JPEG
    }

    /// 72 dots an inch: the customary figure (a camera's pictures have no physical size).
    private static func resolution() -> [ExifField] {
        let seventyTwo = ExifField.Value.rational(ExifFraction(72, signed: false))
        return [ExifField(0x011A, seventyTwo), ExifField(0x011B, seventyTwo), ExifField(0x0128, .short(2))]  // inches
    }
}
