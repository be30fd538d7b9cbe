import CExif

/// libexif's ExifData, owned with the memory manager its entries come from: fields go into
/// its IFDs, and it is saved as the body of an APP1 segment ("Exif\0\0" and a TIFF), with a
/// thumbnail in IFD1. libexif allocates no value for text or undefined entries itself, so
/// every entry's data is allocated here, from the same manager that frees it.
final class ExifBlock {
    private let memory: OpaquePointer
    private let data: UnsafeMutablePointer<ExifData>
    private let order = EXIF_BYTE_ORDER_INTEL

    init() throws(PhotoEncodingError) {
        guard let memory = exif_mem_new_default() else { throw PhotoEncodingError("libexif has no memory") }
        guard let data = exif_data_new_mem(memory) else {
            exif_mem_unref(memory)
            throw PhotoEncodingError("libexif cannot start an EXIF block")
        }
        (self.memory, self.data) = (memory, data)
        exif_data_set_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
        exif_data_set_data_type(data, EXIF_DATA_TYPE_COMPRESSED)
        exif_data_set_byte_order(data, order)
    }

    deinit {
        exif_data_unref(data)
        exif_mem_unref(memory)
    }

    func add(_ fields: [ExifField], to ifd: ExifIfd) throws(PhotoEncodingError) {
        for field in fields { try add(field, to: ifd) }
    }

    func add(_ field: ExifField, to ifd: ExifIfd) throws(PhotoEncodingError) {
        let (format, components) = Self.shape(of: field.value)
        let size = components * Int(exif_format_get_size(format))
        guard let entry = exif_entry_new_mem(memory) else { throw PhotoEncodingError("libexif has no memory") }
        defer { exif_entry_unref(entry) }  // the IFD keeps its own reference
        guard let storage = exif_mem_alloc(memory, ExifLong(size))?.assumingMemoryBound(to: UInt8.self) else {
            throw PhotoEncodingError("libexif has no memory")
        }
        entry.pointee.data = storage
        entry.pointee.size = UInt32(size)
        entry.pointee.tag = ExifTag(rawValue: UInt32(field.tag))
        entry.pointee.format = format
        entry.pointee.components = UInt(components)
        write(field.value, into: storage)
        exif_content_add_entry(content(ifd), entry)
    }

    /// IFD1's thumbnail (a JPEG), copied into libexif's memory (it frees it).
    func setThumbnail(_ jpeg: [UInt8]) throws(PhotoEncodingError) {
        guard let storage = exif_mem_alloc(memory, ExifLong(jpeg.count))?.assumingMemoryBound(to: UInt8.self) else {
            throw PhotoEncodingError("libexif has no memory")
        }
        storage.update(from: jpeg, count: jpeg.count)
        if let old = data.pointee.data { exif_mem_free(memory, old) }
        data.pointee.data = storage
        data.pointee.size = UInt32(jpeg.count)
    }

    /// Adds the tags the specification makes mandatory where they are missing, and drops any
    /// that do not belong in their IFD. Call it before IFD1 is filled: without a thumbnail it
    /// empties IFD1, and with one it adds a JPEGInterchangeFormat that saving adds again.
    func fix() {
        exif_data_fix(data)
    }

    /// The APP1 body; libexif adds IFD1's JPEGInterchangeFormat and its length.
    func save() throws(PhotoEncodingError) -> [UInt8] {
        var saved: UnsafeMutablePointer<UInt8>?
        var size: UInt32 = 0
        exif_data_save_data(data, &saved, &size)
        guard let saved, size > 0 else { throw PhotoEncodingError("libexif cannot save the EXIF block") }
        defer { exif_mem_free(memory, saved) }
        return Array(UnsafeBufferPointer(start: saved, count: Int(size)))
    }

    private static func shape(of value: ExifField.Value) -> (ExifFormat, components: Int) {
        switch value {
        case .short: (EXIF_FORMAT_SHORT, 1)
        case .long: (EXIF_FORMAT_LONG, 1)
        case .rational: (EXIF_FORMAT_RATIONAL, 1)
        case .signedRational: (EXIF_FORMAT_SRATIONAL, 1)
        case .text(let text): (EXIF_FORMAT_ASCII, text.utf8.count + 1)
        case .undefined(let bytes): (EXIF_FORMAT_UNDEFINED, bytes.count)
        case .bytes(let bytes): (EXIF_FORMAT_BYTE, bytes.count)
        case .rationals(let fractions): (EXIF_FORMAT_RATIONAL, fractions.count)
        }
    }

    private func write(_ value: ExifField.Value, into storage: UnsafeMutablePointer<UInt8>) {
        switch value {
        case .short(let short): exif_set_short(storage, order, short)
        case .long(let long): exif_set_long(storage, order, long)
        case .rational(let fraction):
            exif_set_rational(storage, order, ExifRational(numerator: UInt32(fraction.numerator),
                                                           denominator: UInt32(fraction.denominator)))
        case .signedRational(let fraction):
            exif_set_srational(storage, order, ExifSRational(numerator: Int32(fraction.numerator),
                                                             denominator: Int32(fraction.denominator)))
        case .text(let text):
            for (index, byte) in text.utf8.enumerated() { storage[index] = byte }
            storage[text.utf8.count] = 0
        case .undefined(let bytes), .bytes(let bytes):
            for (index, byte) in bytes.enumerated() { storage[index] = byte }
        case .rationals(let fractions):
            for (index, fraction) in fractions.enumerated() {
                exif_set_rational(storage + 8 * index, order, ExifRational(numerator: UInt32(fraction.numerator),
                                                                           denominator: UInt32(fraction.denominator)))
            }
        }
    }

    private func content(_ ifd: ExifIfd) -> UnsafeMutablePointer<ExifContent> {
        withUnsafeBytes(of: data.pointee.ifd) {
            $0.load(fromByteOffset: Int(ifd.rawValue) * MemoryLayout<UnsafeMutablePointer<ExifContent>?>.stride,
                    as: UnsafeMutablePointer<ExifContent>?.self)!
        }
    }
}
