import CTIFF
import ReflexCore
import ReflexISP

/// The DNG's SubIFD: the CFA samples as 16-bit little-endian values whatever the sensor's
/// packing (the values themselves unchanged: a 10-bit sample stays 0…1023, with WhiteLevel
/// saying so), uncompressed in strips or as lossless JPEG tiles, with the colour filter's
/// layout and the levels.
enum DNGRawDirectory {
    /// Refuses what would make a file editors misread.
    static func check(_ layout: RawLayout, _ description: RawDescription) throws(PhotoEncodingError) {
        guard layout.width > 0, layout.height > 0 else { throw PhotoEncodingError("the raw frame is empty") }
        guard (1...65535).contains(description.whiteLevel) else {
            throw PhotoEncodingError("WhiteLevel \(description.whiteLevel) does not fit 16-bit samples")
        }
        let white = Double(description.whiteLevel)
        guard description.blackLevels.allSatisfy({ $0.isFinite && $0 >= 0 && $0 < white }) else {
            throw PhotoEncodingError("black levels \(description.blackLevels) are not below WhiteLevel")
        }
        let active = activeArea(layout, description)
        guard active.x >= 0, active.y >= 0, active.width > 0, active.height > 0,
              active.x + active.width <= layout.width, active.y + active.height <= layout.height else {
            throw PhotoEncodingError("ActiveArea \(active) is not inside the \(layout.width)×\(layout.height) frame")
        }
        let crop = defaultCrop(layout, description)
        guard crop.x >= 0, crop.y >= 0, crop.width > 0, crop.height > 0,
              crop.x + crop.width <= active.width, crop.y + crop.height <= active.height else {
            throw PhotoEncodingError("DefaultCrop \(crop) is not inside the active area")
        }
    }

    static func write(_ raw: UnsafeRawPointer, _ layout: RawLayout, _ description: RawDescription,
                      compression: DNGCompression, into file: TIFFMemoryFile) throws(PhotoEncodingError) {
        // (Subfile type 0: the main image.)
        switch compression {
        case .none:
            let rowsPerStrip = DNGEncoder.rowsPerStrip(bytesPerRow: layout.width * 2, height: layout.height)
            try file.setUncompressedImage(subfileType: 0, width: layout.width, height: layout.height, bitsPerSample: 16,
                                          samplesPerPixel: 1, photometric: UInt16(PHOTOMETRIC_CFA), rowsPerStrip: rowsPerStrip)
            try setFilterTags(layout, description, into: file)
            try writeStrips(raw, layout, rowsPerStrip: rowsPerStrip, into: file)
        case .losslessJPEG:
            let side = DNGCompression.tileSide
            try file.setTiledImage(subfileType: 0, width: layout.width, height: layout.height, bitsPerSample: 16,
                                   samplesPerPixel: 1, photometric: UInt16(PHOTOMETRIC_CFA), tileWidth: side, tileLength: side,
                                   compression: UInt16(COMPRESSION_JPEG))
            try setFilterTags(layout, description, into: file)
            try writeLosslessTiles(raw, layout, precision: max(layout.format.bitsPerSample, 2), into: file)
        }
        try file.writeDirectory()
    }

    /// The CFA and black-level patterns start at the active area's corner (DNG's rule; LibRaw
    /// and dcraw read them so), so an active area at an odd row or column shifts both from the
    /// frame's own order.
    private static func setFilterTags(_ layout: RawLayout, _ description: RawDescription,
                                      into file: TIFFMemoryFile) throws(PhotoEncodingError) {
        let active = activeArea(layout, description)
        let shift = (x: active.x % 2, y: active.y % 2)
        try file.set(TIFFTAG_CFAREPEATPATTERNDIM, [UInt16]([2, 2]))
        try file.set(TIFFTAG_CFAPATTERN, shifted(cfaTile(layout.format.cfa), by: shift))
        try file.set(TIFFTAG_CFAPLANECOLOR, [UInt8]([0, 1, 2]))  // 0 red, 1 green, 2 blue
        try file.set(TIFFTAG_CFALAYOUT, UInt16(1))  // rectangular
        try file.set(TIFFTAG_BLACKLEVELREPEATDIM, [UInt16]([2, 2]))
        try file.set(TIFFTAG_BLACKLEVEL, shifted(description.blackLevels.map { Float($0) }, by: shift))
        try file.set(TIFFTAG_WHITELEVEL, [UInt32(description.whiteLevel)])
        if description.activeArea != nil {
            // Top, left, bottom, right.
            let box = [active.y, active.x, active.y + active.height, active.x + active.width]
            try file.set(TIFFTAG_ACTIVEAREA, box.map { UInt32($0) })
        }
        let crop = defaultCrop(layout, description)
        try file.set(TIFFTAG_DEFAULTCROPORIGIN, [Float(crop.x), Float(crop.y)])
        try file.set(TIFFTAG_DEFAULTCROPSIZE, [Float(crop.width), Float(crop.height)])
    }

    /// The 2×2 tile row by row, as DNG's colour numbers (0 red, 1 green, 2 blue).
    static func cfaTile(_ pattern: CFAPattern) -> [UInt8] {
        let red = pattern.redPosition
        return [(0, 0), (1, 0), (0, 1), (1, 1)].map { x, y in
            (x, y) == (red.x, red.y) ? 0 : (x != red.x && y != red.y ? 2 : 1)
        }
    }

    /// A 2×2 tile as seen from (x, y) of the original.
    static func shifted<T>(_ tile: [T], by shift: (x: Int, y: Int)) -> [T] {
        [(0, 0), (1, 0), (0, 1), (1, 1)].map { x, y in tile[(y + shift.y) % 2 * 2 + (x + shift.x) % 2] }
    }

    private static func activeArea(_ layout: RawLayout, _ description: RawDescription) -> PixelRect {
        description.activeArea ?? PixelRect(x: 0, y: 0, width: layout.width, height: layout.height)
    }

    /// Relative to the active area; all of it unless the description says otherwise.
    private static func defaultCrop(_ layout: RawLayout, _ description: RawDescription) -> PixelRect {
        let active = activeArea(layout, description)
        return description.defaultCrop ?? PixelRect(x: 0, y: 0, width: active.width, height: active.height)
    }

    /// Unpacked a strip at a time into one reused block; rows already in the file's form are
    /// written straight from the frame.
    private static func writeStrips(_ raw: UnsafeRawPointer, _ layout: RawLayout, rowsPerStrip: Int,
                                    into file: TIFFMemoryFile) throws(PhotoEncodingError) {
        let rowBytes = layout.width * 2
        let tops = stride(from: 0, to: layout.height, by: rowsPerStrip)
        if isFileForm(layout) {
            for (index, top) in tops.enumerated() {
                let rows = min(rowsPerStrip, layout.height - top)
                try file.writeStrip(index, raw + top * layout.bytesPerLine, byteCount: rows * rowBytes)
            }
            return
        }
        let strip = UnsafeMutablePointer<UInt16>.allocate(capacity: rowsPerStrip * layout.width)
        defer { strip.deallocate() }
        for (index, top) in tops.enumerated() {
            let rows = min(rowsPerStrip, layout.height - top)
            for row in 0..<rows {
                RawUnpacking.unpack(row: raw + (top + row) * layout.bytesPerLine, packing: layout.format.packing,
                                    first: 0, count: layout.width, into: strip + row * layout.width)
            }
            try file.writeStrip(index, strip, byteCount: rows * rowBytes)
        }
    }

    /// A band of tiles' rows unpacked at a time, each tile coded from it (row by row of tiles,
    /// as TIFF numbers them); the tiles past the right and bottom edges repeat the last
    /// column and row.
    private static func writeLosslessTiles(_ raw: UnsafeRawPointer, _ layout: RawLayout, precision: Int,
                                           into file: TIFFMemoryFile) throws(PhotoEncodingError) {
        let side = DNGCompression.tileSide
        let across = (layout.width + side - 1) / side
        let band = UnsafeMutablePointer<UInt16>.allocate(capacity: side * layout.width)
        defer { band.deallocate() }
        for (bandIndex, top) in stride(from: 0, to: layout.height, by: side).enumerated() {
            let rows = min(side, layout.height - top)
            for row in 0..<rows {
                RawUnpacking.unpack(row: raw + (top + row) * layout.bytesPerLine, packing: layout.format.packing,
                                    first: 0, count: layout.width, into: band + row * layout.width)
            }
            for column in 0..<across {
                let left = column * side
                let tile = LosslessJPEGEncoder.encode(band + left, width: side, height: side, rowStride: layout.width,
                                                      filledWidth: layout.width - left, filledHeight: rows, precision: precision)
                try file.writeRawTile(bandIndex * across + column, tile)
            }
        }
    }

    /// 16-bit little-endian rows with no padding: already what the file holds. (On a
    /// big-endian machine libtiff would swap the bytes in place: the frame is never lent then.)
    private static func isFileForm(_ layout: RawLayout) -> Bool {
        #if _endian(little)
        return layout.format.packing == .unpacked16 && layout.bytesPerLine == layout.width * 2
        #else
        return false
        #endif
    }
}
