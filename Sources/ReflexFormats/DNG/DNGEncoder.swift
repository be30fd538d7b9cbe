import CTIFF
import ReflexCore
import ReflexISP

/// A raw frame as a DNG, made in memory: the save queue writes the bytes (and can write the
/// same bytes again). The layout is the one darktable, Lightroom, RawTherapee and LibRaw read
/// (rpicam-apps' without its stray IFD1): IFD0 a small 8-bit RGB preview carrying the camera's
/// names and the colour tags; its one SubIFD the raw CFA image, 16-bit, uncompressed in
/// strips (or lossless JPEG tiles, `DNGCompression`); an Exif IFD with the exposure; a GPS IFD where the photo has a fix. No other
/// directory, so editors can rewrite the file.
public enum DNGEncoder {
    /// The width of IFD0's preview the camera makes (`ImageDownscaler`): enough for a file
    /// browser, small beside the raw.
    public static let previewWidth = 256

    /// The DNG of the frame at `raw` (laid out as `layout`: any packing, rows `bytesPerLine`
    /// apart), with `preview` (any size; `previewWidth` wide is usual) as IFD0's image.
    public static func encode(raw: UnsafeRawPointer, layout: RawLayout, photo: PhotoDescription,
                              rawDescription: RawDescription, preview: RGBImage,
                              compression: DNGCompression = .none) throws(PhotoEncodingError) -> [UInt8] {
        try DNGRawDirectory.check(layout, rawDescription)
        guard preview.width > 0, preview.height > 0 else { throw PhotoEncodingError("the DNG preview is empty") }
        let rawBytes = layout.width * layout.height * 2, previewBytes = preview.width * preview.height * 3
        let file = try TIFFMemoryFile(expectedSize: rawBytes + previewBytes + 65536)
        let exif = PhotoExif.exifDirectory(photo)
        // The Exif IFD is written first, so IFD0 can point at it as it is written: no
        // directory is written twice, and none is left behind.
        let exifOffset = try writeExifDirectory(exif, into: file)
        let gps = photo.location.map(PhotoGPS.directory)
        let gpsOffset = try gps.map { fields throws(PhotoEncodingError) in try writeGPSDirectory(fields, into: file) }
        try writeMainDirectory(photo, rawDescription, preview: preview, exifOffset: exifOffset, gpsOffset: gpsOffset,
                               into: file)
        try DNGRawDirectory.write(raw, layout, rawDescription, compression: compression, into: file)
        return try finish(file, exif: exif, gps: gps ?? [])
    }

    /// Rows in a strip of about 256 KB: small enough to read a piece at a time, few enough
    /// that the offsets stay a short list.
    static func rowsPerStrip(bytesPerRow: Int, height: Int) -> Int {
        min(height, max(1, 256 * 1024 / bytesPerRow))
    }

    private static func writeExifDirectory(_ exif: [ExifField], into file: TIFFMemoryFile)
        throws(PhotoEncodingError) -> UInt64 {
        try file.createEXIFDirectory()
        for field in exif { try file.set(field) }
        return try file.writeCustomDirectory()
    }

    private static func writeGPSDirectory(_ gps: [ExifField], into file: TIFFMemoryFile)
        throws(PhotoEncodingError) -> UInt64 {
        try file.createGPSDirectory()
        for field in gps { try file.set(field) }
        return try file.writeCustomDirectory()
    }

    private static func writeMainDirectory(_ photo: PhotoDescription, _ description: RawDescription, preview: RGBImage,
                                           exifOffset: UInt64, gpsOffset: UInt64?,
                                           into file: TIFFMemoryFile) throws(PhotoEncodingError) {
        try file.createDirectory()
        try file.defineDNGTags()
        try setIdentity(photo, uniqueCameraModel: description.uniqueCameraModel, into: file)
        try DNGColourTags.set(description, into: file)
        // One SubIFD, the raw: libtiff fills in its offset when it writes the next directory.
        try file.set(TIFFTAG_SUBIFD, [UInt64(0)])
        try file.set(TIFFTAG_EXIFIFD, offset: exifOffset)
        if let gpsOffset { try file.set(TIFFTAG_GPSIFD, offset: gpsOffset) }
        if let frames = description.framesMerged { try file.set(TIFFTAG_XMLPACKET, MergeXMP.packet(framesMerged: frames)) }
        try writePreview(preview, into: file)
        try file.writeDirectory()
    }

    private static func setIdentity(_ photo: PhotoDescription, uniqueCameraModel: String,
                                    into file: TIFFMemoryFile) throws(PhotoEncodingError) {
        try file.set(TIFFTAG_MAKE, PhotoExif.ascii(photo.make))
        try file.set(TIFFTAG_MODEL, PhotoExif.ascii(photo.model))
        try file.set(TIFFTAG_SOFTWARE, PhotoExif.ascii(photo.software))
        try file.set(TIFFTAG_ORIENTATION, photo.orientation.rawValue)
        try file.set(TIFFTAG_DATETIME, photo.captured.exifDateTime)
        try file.set(TIFFTAG_UNIQUECAMERAMODEL, PhotoExif.ascii(uniqueCameraModel))
        try file.set(TIFFTAG_DNGVERSION, [UInt8]([1, 4, 0, 0]))
        try file.set(TIFFTAG_DNGBACKWARDVERSION, [UInt8]([1, 1, 0, 0]))
    }

    /// IFD0's image: 8-bit RGB, uncompressed, in strips, marked as a reduced-resolution copy.
    private static func writePreview(_ preview: RGBImage, into file: TIFFMemoryFile) throws(PhotoEncodingError) {
        let rowBytes = preview.width * 3
        let rowsPerStrip = rowsPerStrip(bytesPerRow: rowBytes, height: preview.height)
        try file.setUncompressedImage(subfileType: UInt32(FILETYPE_REDUCEDIMAGE), width: preview.width,
                                      height: preview.height, bitsPerSample: 8, samplesPerPixel: 3,
                                      photometric: UInt16(PHOTOMETRIC_RGB), rowsPerStrip: rowsPerStrip)
        // Rows are gathered into one block a strip: the preview's rows may be padded.
        let strip = UnsafeMutablePointer<UInt8>.allocate(capacity: rowsPerStrip * rowBytes)
        defer { strip.deallocate() }
        for (index, top) in stride(from: 0, to: preview.height, by: rowsPerStrip).enumerated() {
            let rows = min(rowsPerStrip, preview.height - top)
            for row in 0..<rows {
                (strip + row * rowBytes).update(from: preview.pixels + (top + row) * preview.stride, count: rowBytes)
            }
            try file.writeStrip(index, strip, byteCount: rows * rowBytes)
        }
    }

    /// The bytes, with libtiff's two departures from what readers expect put right.
    private static func finish(_ file: TIFFMemoryFile, exif: [ExifField], gps: [ExifField]) throws(PhotoEncodingError) -> [UInt8] {
        var editor = try TIFFEntryEditor(try file.finish())
        let main = try editor.firstDirectory
        // libtiff types the SubIFDs, ExifIFD and GPSInfo pointers IFD (13); cameras write
        // LONG, which exiftool -validate expects.
        try editor.setType(TIFFEntryEditor.long, of: UInt16(TIFFTAG_SUBIFD), inDirectoryAt: main)
        try editor.setType(TIFFEntryEditor.long, of: UInt16(TIFFTAG_EXIFIFD), inDirectoryAt: main)
        try exactFractions(exif, in: try editor.value(of: UInt16(TIFFTAG_EXIFIFD), inDirectoryAt: main), of: &editor)
        if !gps.isEmpty {
            try editor.setType(TIFFEntryEditor.long, of: UInt16(TIFFTAG_GPSIFD), inDirectoryAt: main)
            try exactFractions(gps, in: try editor.value(of: UInt16(TIFFTAG_GPSIFD), inDirectoryAt: main), of: &editor)
        }
        return editor.bytes
    }

    /// libtiff keeps rationals as floats or doubles and writes their binary fractions
    /// (8589935/1073741824 for 1/125 s): the exact fractions go in their place.
    private static func exactFractions(_ fields: [ExifField], in directory: Int,
                                       of editor: inout TIFFEntryEditor) throws(PhotoEncodingError) {
        for field in fields {
            switch field.value {
            case .rational(let fraction), .signedRational(let fraction):
                try editor.setRational(fraction, of: field.tag, inDirectoryAt: directory)
            case .rationals(let fractions):
                try editor.setRationals(fractions, of: field.tag, inDirectoryAt: directory)
            default: break
            }
        }
    }
}
