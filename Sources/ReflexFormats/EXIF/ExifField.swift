/// One EXIF tag and its value, independent of the library that writes it: the DNG's Exif IFD
/// goes through libtiff, the JPEG's through libexif, both from the same list.
struct ExifField: Equatable {
    enum Value: Equatable {
        case short(UInt16)
        case long(UInt32)
        case rational(ExifFraction)
        case signedRational(ExifFraction)
        /// Written with its NUL terminator.
        case text(String)
        case undefined([UInt8])
        /// BYTE values (GPSVersionID, GPSAltitudeRef).
        case bytes([UInt8])
        /// Several RATIONALs (degrees, minutes, seconds).
        case rationals([ExifFraction])
    }

    let tag: UInt16
    let value: Value

    init(_ tag: UInt16, _ value: Value) {
        (self.tag, self.value) = (tag, value)
    }
}
