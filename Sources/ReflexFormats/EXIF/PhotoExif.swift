/// The Exif IFD both files carry, made once from the photo's description so that the DNG
/// (through libtiff) and the JPEG (through libexif) say the same. Fields the camera does not
/// know (no aperture on a fixed lens without a board entry) are left out, never made up.
enum PhotoExif {
    /// Exif 2.32, the version whose OffsetTime tags are written.
    static let version: [UInt8] = Array("0232".utf8)

    /// The Exif IFD's fields, in ascending tag order.
    static func exifDirectory(_ photo: PhotoDescription) -> [ExifField] {
        var fields = [ExifField(0x829A, .rational(ExifFraction(photo.exposureSeconds, signed: false)))]  // ExposureTime
        if let fNumber = photo.fNumber {
            fields.append(ExifField(0x829D, .rational(ExifFraction(fNumber, signed: false))))  // FNumber
        }
        fields += [
            ExifField(0x8822, .short(photo.exposureProgram.rawValue)),  // ExposureProgram
            ExifField(0x8827, .short(UInt16(clamping: photo.iso))),  // ISOSpeedRatings
            ExifField(0x9000, .undefined(version)),  // ExifVersion
            ExifField(0x9003, .text(photo.captured.exifDateTime)),  // DateTimeOriginal
            ExifField(0x9011, .text(photo.captured.exifOffset)),  // OffsetTimeOriginal
            ExifField(0x9204, .signedRational(ExifFraction(photo.exposureBias, signed: true))),  // ExposureBiasValue
            ExifField(0x9207, .short(photo.meteringMode.rawValue)),  // MeteringMode
        ]
        if let focal = photo.focalLengthMillimetres {
            fields.append(ExifField(0x920A, .rational(ExifFraction(focal, signed: false))))  // FocalLength
        }
        fields += [
            ExifField(0x9291, .text(photo.captured.exifSubSeconds)),  // SubSecTimeOriginal
            // ExposureMode: auto, manual, auto bracket
            ExifField(0xA402, .short(photo.bracketed ? 2 : photo.exposureProgram == .manual ? 1 : 0)),
            ExifField(0xA403, .short(photo.whiteBalanceManual ? 1 : 0)),  // WhiteBalance: manual, auto
        ]
        if let focal35 = photo.focalLength35mm {
            fields.append(ExifField(0xA405, .short(UInt16(clamping: focal35))))  // FocalLengthIn35mmFilm
        }
        if let lens = photo.lensModel { fields.append(ExifField(0xA434, .text(ascii(lens)))) }  // LensModel
        return fields
    }

    /// EXIF and TIFF text is 7-bit ASCII: anything else (a "µ" in a board's lens name) becomes "?".
    static func ascii(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { (0x20..<0x7F).contains($0.value) ? $0 : "?" }))
    }
}
