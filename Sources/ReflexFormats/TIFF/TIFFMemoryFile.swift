import CTIFF
#if canImport(Glibc)
import Glibc
#endif

/// A little-endian TIFF that libtiff writes into memory, its handle owned: closed when this
/// goes, whatever happened. Each field is checked against libtiff's own definition of its tag
/// before it is set: `TIFFSetField` reads values through C varargs as the type that definition
/// names, so a value of the wrong width or kind would be read as garbage, silently.
final class TIFFMemoryFile {
    private let stream: TIFFMemoryStream
    private var tiff: OpaquePointer?
    /// Where libtiff's errors go (to `stream.errors`); lives as long as the handle.
    private let errorRoute: UnsafeMutablePointer<reflex_tiff_error_route>

    init(expectedSize: Int) throws(PhotoEncodingError) {
        stream = TIFFMemoryStream(expectedSize: expectedSize)
        let context = Unmanaged.passUnretained(stream).toOpaque()
        errorRoute = .allocate(capacity: 1)
        errorRoute.initialize(to: reflex_tiff_error_route(
            sink: { context, message in TIFFMemoryStream.from(context).errors.append(String(cString: message!)) },
            context: context))
        let options = TIFFOpenOptionsAlloc()
        defer { TIFFOpenOptionsFree(options) }
        // Errors are kept for the thrown message, warnings dropped: neither goes to stderr.
        reflex_tiff_options_route_errors(options, errorRoute)
        tiff = TIFFClientOpenExt(
            "memory", "wl", context,
            { handle, buffer, count in tmsize_t(TIFFMemoryStream.from(handle).read(into: buffer!, count: Int(count))) },
            { handle, buffer, count in tmsize_t(TIFFMemoryStream.from(handle).write(buffer!, count: Int(count))) },
            { handle, offset, whence in TIFFMemoryStream.from(handle).seek(offset, whence: whence) ?? UInt64.max },
            { _ in 0 },
            { handle in UInt64(TIFFMemoryStream.from(handle).bytes.count) },
            { _, _, _ in 0 },  // not mapped: libtiff reads through the read procedure instead
            { _, _, _ in },
            options)
        guard tiff != nil else { throw failure("cannot start a TIFF in memory") }
    }

    deinit {
        if let tiff { TIFFClose(tiff) }
        errorRoute.deallocate()
    }

    // MARK: Fields

    func set(_ tag: Int32, _ value: UInt16) throws(PhotoEncodingError) {
        let field = try definition(of: tag)
        if TIFFFieldPassCount(field) != 0 { return try set(tag, [value]) }  // e.g. ISOSpeedRatings
        try expect(field, tag, size: 2, real: false)
        try check(reflex_tiff_set_u16(tiff, UInt32(tag), value), tag)
    }

    /// A single BYTE (GPSAltitudeRef); C's variadic call widens it to an int either way.
    func set(_ tag: Int32, _ value: UInt8) throws(PhotoEncodingError) {
        try expect(try definition(of: tag), tag, size: 1, real: false)
        try check(reflex_tiff_set_u16(tiff, UInt32(tag), UInt16(value)), tag)
    }

    func set(_ tag: Int32, _ value: UInt32) throws(PhotoEncodingError) {
        try expect(try definition(of: tag), tag, size: 4, real: false)
        try check(reflex_tiff_set_u32(tiff, UInt32(tag), value), tag)
    }

    /// A directory offset (libtiff keeps them as 64-bit even in a classic TIFF).
    func set(_ tag: Int32, offset: UInt64) throws(PhotoEncodingError) {
        try expect(try definition(of: tag), tag, size: 8, real: false)
        try check(reflex_tiff_set_u64(tiff, UInt32(tag), offset), tag)
    }

    /// A single rational, float or double: always passed as a double, stored as libtiff likes.
    func set(_ tag: Int32, _ value: Double) throws(PhotoEncodingError) {
        let field = try definition(of: tag)
        guard TIFFFieldPassCount(field) == 0, Self.isReal(TIFFFieldDataType(field)) else {
            throw PhotoEncodingError("TIFF tag \(tag) takes no single real value")
        }
        try check(reflex_tiff_set_double(tiff, UInt32(tag), value), tag)
    }

    func set(_ tag: Int32, _ text: String) throws(PhotoEncodingError) {
        guard TIFFFieldDataType(try definition(of: tag)) == TIFF_ASCII else {
            throw PhotoEncodingError("TIFF tag \(tag) is not text")
        }
        try check(text.withCString { reflex_tiff_set_string(tiff, UInt32(tag), $0) }, tag)
    }

    /// An array: with its count where the tag's length varies, alone where it is fixed (and
    /// then it must have exactly that length).
    func set<Element: BitwiseCopyable>(_ tag: Int32, _ values: [Element]) throws(PhotoEncodingError) {
        let field = try definition(of: tag)
        let real = Element.self == Float.self || Element.self == Double.self
        try expect(field, tag, size: MemoryLayout<Element>.size, real: real)
        let result: Int32
        if TIFFFieldPassCount(field) != 0 && TIFFFieldSetGetCountSize(field) == 4 {
            guard values.count <= Int(UInt32.max) else {
                throw PhotoEncodingError("TIFF tag \(tag): \(values.count) values do not fit its count")
            }
            result = values.withUnsafeBytes {
                reflex_tiff_set_array32(tiff, UInt32(tag), UInt32(values.count), $0.baseAddress)
            }
        } else if TIFFFieldPassCount(field) != 0 {
            guard TIFFFieldSetGetCountSize(field) == 2, values.count <= Int(UInt16.max) else {
                throw PhotoEncodingError("TIFF tag \(tag): \(values.count) values do not fit its count")
            }
            result = values.withUnsafeBytes {
                reflex_tiff_set_array(tiff, UInt32(tag), UInt16(values.count), $0.baseAddress)
            }
        } else {
            guard Int(TIFFFieldWriteCount(field)) == values.count else {
                let count = TIFFFieldWriteCount(field)
                throw PhotoEncodingError("TIFF tag \(tag) takes \(count) values, not \(values.count)")
            }
            result = values.withUnsafeBytes { reflex_tiff_set_fixed_array(tiff, UInt32(tag), $0.baseAddress) }
        }
        try check(result, tag)
    }

    /// An EXIF field, through the setter its value's kind needs. Rationals go in as doubles and
    /// come out as libtiff's binary fractions (see `DNGEncoder.finish`).
    func set(_ field: ExifField) throws(PhotoEncodingError) {
        let tag = Int32(field.tag)
        switch field.value {
        case .short(let value): try set(tag, value)
        case .long(let value): try set(tag, value)
        case .rational(let fraction), .signedRational(let fraction): try set(tag, fraction.value)
        case .text(let text): try set(tag, text)
        case .undefined(let bytes): try set(tag, bytes)
        case .bytes(let bytes):
            let definition = try definition(of: tag)
            if bytes.count == 1, TIFFFieldPassCount(definition) == 0, TIFFFieldWriteCount(definition) == 1 {
                try set(tag, bytes[0])
            } else {
                try set(tag, bytes)
            }
        case .rationals(let fractions):
            // libtiff keeps some rational arrays as floats, others (GPS coordinates) as doubles.
            if TIFFFieldSetGetSize(try definition(of: tag)) == 8 {
                try set(tag, fractions.map(\.value))
            } else {
                try set(tag, fractions.map { Float($0.value) })
            }
        }
    }

    // MARK: Image data and directories

    func writeStrip(_ index: Int, _ data: UnsafeRawPointer, byteCount: Int) throws(PhotoEncodingError) {
        // Uncompressed and in the host's order, libtiff only copies from `data`.
        let written = TIFFWriteEncodedStrip(tiff, UInt32(index), UnsafeMutableRawPointer(mutating: data),
                                            tmsize_t(byteCount))
        guard written == byteCount else { throw failure("cannot write strip \(index)") }
    }

    /// A tile already compressed (`compression` of `setTiledImage`), its bytes as they are.
    func writeRawTile(_ index: Int, _ bytes: [UInt8]) throws(PhotoEncodingError) {
        let written = bytes.withUnsafeBytes { buffer in
            TIFFWriteRawTile(tiff, UInt32(index), UnsafeMutableRawPointer(mutating: buffer.baseAddress!), tmsize_t(buffer.count))
        }
        guard written == bytes.count else { throw failure("cannot write tile \(index)") }
    }

    /// The tags of an image in tiles compressed by the caller (its tiles written with
    /// `writeRawTile`: libtiff's own codec for `compression` never runs).
    func setTiledImage(subfileType: UInt32, width: Int, height: Int, bitsPerSample: UInt16, samplesPerPixel: UInt16,
                       photometric: UInt16, tileWidth: Int, tileLength: Int, compression: UInt16) throws(PhotoEncodingError) {
        try setImage(subfileType: subfileType, width: width, height: height, bitsPerSample: bitsPerSample,
                     samplesPerPixel: samplesPerPixel, photometric: photometric, compression: compression)
        try set(TIFFTAG_TILEWIDTH, UInt32(tileWidth))
        try set(TIFFTAG_TILELENGTH, UInt32(tileLength))
    }

    /// The tags of an uncompressed image in strips, its samples side by side.
    func setUncompressedImage(subfileType: UInt32, width: Int, height: Int, bitsPerSample: UInt16,
                              samplesPerPixel: UInt16, photometric: UInt16, rowsPerStrip: Int) throws(PhotoEncodingError) {
        try setImage(subfileType: subfileType, width: width, height: height, bitsPerSample: bitsPerSample,
                     samplesPerPixel: samplesPerPixel, photometric: photometric, compression: UInt16(COMPRESSION_NONE))
        try set(TIFFTAG_ROWSPERSTRIP, UInt32(rowsPerStrip))
    }

    /// What every image's tags say, however its data is laid out.
    private func setImage(subfileType: UInt32, width: Int, height: Int, bitsPerSample: UInt16, samplesPerPixel: UInt16,
                          photometric: UInt16, compression: UInt16) throws(PhotoEncodingError) {
        try set(TIFFTAG_SUBFILETYPE, subfileType)
        try set(TIFFTAG_IMAGEWIDTH, UInt32(width))
        try set(TIFFTAG_IMAGELENGTH, UInt32(height))
        try set(TIFFTAG_BITSPERSAMPLE, bitsPerSample)
        try set(TIFFTAG_SAMPLESPERPIXEL, samplesPerPixel)
        try set(TIFFTAG_PHOTOMETRIC, photometric)
        try set(TIFFTAG_PLANARCONFIG, UInt16(PLANARCONFIG_CONTIG))
        try set(TIFFTAG_COMPRESSION, compression)
    }

    /// Writes the directory being filled and starts the next (a SubIFD, when the one written
    /// announced SubIFDs).
    func writeDirectory() throws(PhotoEncodingError) {
        guard TIFFWriteDirectory(tiff) == 1 else { throw failure("cannot write a TIFF directory") }
    }

    /// Starts a new image directory, with libtiff's own tag definitions. The directory set
    /// before is freed first: after `writeCustomDirectory` libtiff still holds the Exif
    /// directory's values, and TIFFCreateDirectory resets them without freeing them (its
    /// text fields leaked a few hundred bytes a DNG, found by the soak under heaptrack).
    func createDirectory() throws(PhotoEncodingError) {
        TIFFFreeDirectory(tiff)
        guard TIFFCreateDirectory(tiff) == 0 else { throw failure("cannot start a TIFF directory") }
    }

    /// Starts an Exif IFD, with libtiff's Exif tag definitions.
    func createEXIFDirectory() throws(PhotoEncodingError) {
        guard TIFFCreateEXIFDirectory(tiff) == 0 else { throw failure("cannot start an Exif directory") }
    }

    /// Starts a GPS IFD, with libtiff's GPS tag definitions.
    func createGPSDirectory() throws(PhotoEncodingError) {
        guard TIFFCreateGPSDirectory(tiff) == 0 else { throw failure("cannot start a GPS directory") }
    }

    /// Writes a directory started by `createEXIFDirectory` where the file ends, linked from
    /// nowhere; returns its offset, for the tag that will point at it.
    func writeCustomDirectory() throws(PhotoEncodingError) -> UInt64 {
        var offset: UInt64 = 0
        guard TIFFWriteCustomDirectory(tiff, &offset) == 1 else { throw failure("cannot write an Exif directory") }
        return offset
    }

    /// Teaches the current directory ForwardMatrix1/2 and NoiseProfile.
    func defineDNGTags() throws(PhotoEncodingError) {
        guard reflex_tiff_merge_dng_fields(tiff) == 1 else { throw failure("cannot define the DNG 1.3 tags") }
    }

    /// Flushes and closes the file; its bytes.
    func finish() throws(PhotoEncodingError) -> [UInt8] {
        guard let open = tiff else { throw PhotoEncodingError("the TIFF was already finished") }
        let flushed = TIFFFlush(open)
        TIFFClose(open)
        tiff = nil
        guard flushed == 1, stream.errors.isEmpty else { throw failure("cannot finish the TIFF") }
        defer { stream.bytes = [] }
        return stream.bytes
    }

    // MARK: Checks

    private func definition(of tag: Int32) throws(PhotoEncodingError) -> OpaquePointer {
        guard let field = TIFFFindField(tiff, UInt32(tag), TIFF_NOTYPE) else {
            throw PhotoEncodingError("libtiff has no definition of TIFF tag \(tag)")
        }
        return field
    }

    private func expect(_ field: OpaquePointer, _ tag: Int32, size: Int, real: Bool) throws(PhotoEncodingError) {
        guard Int(TIFFFieldSetGetSize(field)) == size, Self.isReal(TIFFFieldDataType(field)) == real else {
            let name = String(cString: TIFFFieldName(field))
            throw PhotoEncodingError("TIFF tag \(tag) (\(name)) takes another kind of value")
        }
    }

    private func check(_ result: Int32, _ tag: Int32) throws(PhotoEncodingError) {
        guard result == 1 else { throw failure("libtiff refused TIFF tag \(tag)") }
    }

    private static func isReal(_ type: TIFFDataType) -> Bool {
        [TIFF_RATIONAL, TIFF_SRATIONAL, TIFF_FLOAT, TIFF_DOUBLE].contains(type)
    }

    private func failure(_ what: String) -> PhotoEncodingError {
        PhotoEncodingError(what + (stream.errors.last.map { " (libtiff: \($0))" } ?? ""))
    }
}
