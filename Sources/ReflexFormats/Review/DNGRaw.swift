import ReflexCore
import ReflexISP

/// A DNG's raw image read back for review: the colour filter array's samples (uncompressed
/// or lossless JPEG tiles, ours or another camera's), with what our own still pipeline needs
/// to develop them as the camera's JPEG would have been (the levels, the white balance it was
/// shot at, the colour matrix, the brightness) and how the picture is turned.
public struct DNGRaw: Sendable {
    /// The stored image as 16-bit samples, its colour order counted from its top-left sample.
    public let layout: RawLayout
    public let samples: [UInt16]
    /// The picture's part of it (ActiveArea and DefaultCrop, even-aligned for the filter).
    public let crop: PixelRect
    public let parameters: ISPParameters
    public let orientation: PhotoOrientation

    /// More samples than this are refused (a damaged directory may claim anything).
    static let largestImage = 200_000_000

    /// Reads the raw image of `bytes`, a whole DNG file.
    public static func read(_ bytes: [UInt8]) throws(RawFileError) -> DNGRaw {
        guard let tiff = TIFFReader(bytes), let first = tiff.firstDirectory, let ifd0 = tiff.directory(at: first) else {
            throw RawFileError("not a TIFF")
        }
        guard let rawEntries = rawDirectory(tiff, ifd0: ifd0.entries) else {
            throw RawFileError("no colour filter image in the DNG")
        }
        let image = try Image(tiff, rawEntries)
        var samples = [UInt16](repeating: 0, count: image.width * image.height)
        try samples.withUnsafeMutableBufferPointer { out throws(RawFileError) in
            try image.readSamples(tiff, into: out.baseAddress!)
        }
        let active = image.activeArea
        let red = try redPosition(tiff, rawEntries)
        let cfa = CFAPattern.allCases.first { $0.redPosition == ((red.x + active.x) % 2, (red.y + active.y) % 2) }!
        let white = tiff.first(50717, in: rawEntries).map { Int($0) } ?? (1 << image.bitsPerSample) - 1
        let black = blackLevel(tiff, rawEntries)
        guard white > black, white <= 65535 else { throw RawFileError("WhiteLevel \(white) is not above BlackLevel \(black)") }
        let bits = min(max(Int.bitWidth - white.leadingZeroBitCount, 8), 16)
        let layout = RawLayout(width: image.width, height: image.height, bytesPerLine: image.width * 2,
                               format: RawFormat(cfa: cfa, bitsPerSample: bits, packing: .unpacked16))
        return DNGRaw(layout: layout, samples: samples, crop: pictureCrop(tiff, rawEntries, active: active),
                      parameters: developing(tiff, ifd0.entries, black: black, white: white),
                      orientation: tiff.first(0x0112, in: ifd0.entries).flatMap { UInt16(exactly: $0) }.flatMap(PhotoOrientation.init(rawValue:))
                          ?? .upright)
    }

    /// The directory of the main image (NewSubfileType 0, colour filter array): one of IFD0's
    /// SubIFDs in ours and Adobe's, IFD0 itself in some cameras'.
    private static func rawDirectory(_ tiff: TIFFReader, ifd0: [TIFFReader.Entry]) -> [TIFFReader.Entry]? {
        func isRaw(_ entries: [TIFFReader.Entry]) -> Bool {
            (tiff.value(0x00FE, in: entries) ?? 0) == 0 && tiff.value(0x0106, in: entries) == 32803
        }
        if isRaw(ifd0) { return ifd0 }
        guard let sub = ifd0.first(where: { $0.tag == 0x014A }), let offsets = tiff.numbers(sub, limit: 16) else { return nil }
        for offset in offsets {
            if let directory = tiff.directory(at: Int(offset)), isRaw(directory.entries) { return directory.entries }
        }
        return nil
    }

    /// The colour filter's red sample in its 2×2 repeat, counted from the active area's corner
    /// (DNG's rule); only Bayer's RGGB orders are read.
    private static func redPosition(_ tiff: TIFFReader, _ entries: [TIFFReader.Entry]) throws(RawFileError) -> (x: Int, y: Int) {
        let dimensions = entries.first { $0.tag == 33421 }.flatMap { tiff.numbers($0, limit: 2) } ?? [2, 2]
        guard dimensions == [2, 2], let pattern = entries.first(where: { $0.tag == 33422 }).flatMap({ tiff.numbers($0, limit: 4) }),
              pattern.count == 4, pattern.sorted() == [0, 1, 1, 2], pattern[0] == pattern[3] || pattern[1] == pattern[2],
              let red = pattern.firstIndex(of: 0) else {
            throw RawFileError("the colour filter is not a 2×2 Bayer pattern")
        }
        return (red % 2, red / 2)
    }

    /// BlackLevel's repeat averaged (the ISP takes one level for all four).
    private static func blackLevel(_ tiff: TIFFReader, _ entries: [TIFFReader.Entry]) -> Int {
        guard let levels = entries.first(where: { $0.tag == 50714 }).flatMap({ tiff.numbers($0, limit: 64) }),
              !levels.isEmpty, levels.allSatisfy({ $0.isFinite && $0 >= 0 }) else { return 0 }
        return Int((levels.reduce(0, +) / Double(levels.count)).rounded())
    }

    /// DefaultCrop inside the active area, in the stored image's pixels, even-aligned.
    private static func pictureCrop(_ tiff: TIFFReader, _ entries: [TIFFReader.Entry], active: PixelRect) -> PixelRect {
        let origin = entries.first { $0.tag == 50719 }.flatMap { tiff.numbers($0, limit: 2) } ?? [0, 0]
        let size = entries.first { $0.tag == 50720 }.flatMap { tiff.numbers($0, limit: 2) }
            ?? [Double(active.width), Double(active.height)]
        guard origin.count == 2, size.count == 2, (origin + size).allSatisfy({ $0.isFinite && $0 >= 0 && $0 < 1e6 }) else {
            return PixelRect(x: active.x, y: active.y, width: active.width & ~1, height: active.height & ~1)
        }
        let x = min(active.x + Int(origin[0]), active.x + active.width - 2) & ~1
        let y = min(active.y + Int(origin[1]), active.y + active.height - 2) & ~1
        let width = max(min(Int(size[0]), active.x + active.width - x) & ~1, 2)
        let height = max(min(Int(size[1]), active.y + active.height - y) & ~1, 2)
        return PixelRect(x: x, y: y, width: width, height: height)
    }

    /// The levels, the white balance shot at (AsShotNeutral), the brightness (BaselineExposure:
    /// ours is the digital gain our JPEG was given) and white-balanced camera RGB → sRGB: the
    /// daylight ColorMatrix (the second where there are two, as DNG orders them) inverted and
    /// given back the neutral the gains took out, as raw editors develop it, rows normalised
    /// so the gains alone decide white.
    private static func developing(_ tiff: TIFFReader, _ ifd0: [TIFFReader.Entry], black: Int, white: Int) -> ISPParameters {
        var parameters = ISPParameters(blackLevel: black, whiteLevel: white)
        var neutral = SIMD3<Double>(1, 1, 1)
        if let shot = ifd0.first(where: { $0.tag == 50728 }).flatMap({ tiff.numbers($0, limit: 3) }), shot.count == 3,
           shot.allSatisfy({ $0 > 0 && $0.isFinite }) {
            neutral = SIMD3(shot[0] / shot[1], 1, shot[2] / shot[1])
            parameters.whiteBalance = SIMD3(1 / neutral.x, 1, 1 / neutral.z)
        }
        if let baseline = ifd0.first(where: { $0.tag == 50730 }).flatMap({ tiff.number($0) }), baseline.isFinite {
            parameters.digitalGain = FastMath.exp2(min(max(baseline, -4), 4))
        }
        let matrix = [50722, 50721].lazy.compactMap { tag in
            ifd0.first { $0.tag == tag }.flatMap { tiff.numbers($0, limit: 9) }
        }.first { $0.count == 9 && $0.allSatisfy(\.isFinite) }
        if let matrix, let xyzFromCamera = Matrix3(matrix).inverse {
            let unbalance = Matrix3([neutral.x, 0, 0, 0, 1, 0, 0, 0, neutral.z])
            parameters.colorMatrix = (Matrix3.sRGBFromXYZ * xyzFromCamera * unbalance).rowsNormalised
        }
        return parameters
    }

    /// The raw directory's image: its size, where its samples are and how they are stored.
    private struct Image {
        let width: Int
        let height: Int
        let bitsPerSample: Int
        let compression: Int
        /// Strips (`tileWidth` = the width) or tiles.
        let tileWidth: Int
        let tileHeight: Int
        let offsets: [Double]
        let counts: [Double]
        let activeArea: PixelRect

        init(_ tiff: TIFFReader, _ entries: [TIFFReader.Entry]) throws(RawFileError) {
            guard let wide = tiff.first(0x0100, in: entries), let high = tiff.first(0x0101, in: entries),
                  wide >= 2, high >= 2, wide * high <= Double(DNGRaw.largestImage) else {
                throw RawFileError("the raw image's size is missing or too large")
            }
            let (width, height) = (Int(wide), Int(high))
            (self.width, self.height) = (width, height)
            bitsPerSample = Int(tiff.first(0x0102, in: entries) ?? 16)
            compression = Int(tiff.first(0x0103, in: entries) ?? 1)
            guard (tiff.first(0x0115, in: entries) ?? 1) == 1 else { throw RawFileError("more than one sample a pixel") }
            switch (compression, bitsPerSample) {
            case (1, 8...16), (7, 2...16): break
            default: throw RawFileError("compression \(compression) with \(bitsPerSample)-bit samples is not read")
            }
            if let tileWidth = tiff.first(0x0142, in: entries), let tileHeight = tiff.first(0x0143, in: entries) {
                guard tileWidth >= 1, tileHeight >= 1, tileWidth * tileHeight <= Double(1 << 26) else {
                    throw RawFileError("tiles of \(tileWidth)×\(tileHeight)")
                }
                (self.tileWidth, self.tileHeight) = (Int(tileWidth), Int(tileHeight))
                offsets = entries.first { $0.tag == 0x0144 }.flatMap { tiff.numbers($0, limit: 1 << 20) } ?? []
                counts = entries.first { $0.tag == 0x0145 }.flatMap { tiff.numbers($0, limit: 1 << 20) } ?? []
            } else {
                tileWidth = width
                tileHeight = max(min(Int(min(tiff.first(0x0116, in: entries) ?? high, high)), height), 1)
                offsets = entries.first { $0.tag == 0x0111 }.flatMap { tiff.numbers($0, limit: 1 << 20) } ?? []
                counts = entries.first { $0.tag == 0x0117 }.flatMap { tiff.numbers($0, limit: 1 << 20) } ?? []
            }
            let across = (width + tileWidth - 1) / tileWidth, down = (height + tileHeight - 1) / tileHeight
            guard offsets.count == across * down, counts.count == offsets.count else {
                throw RawFileError("\(offsets.count) tiles or strips where \(across * down) were expected")
            }
            // Top, left, bottom, right.
            let box = entries.first { $0.tag == 50829 }.flatMap { tiff.numbers($0, limit: 4) } ?? [0, 0, high, wide]
            guard box.count == 4, box[0] >= 0, box[1] >= 0, box[2] <= high, box[3] <= wide, box[2] - box[0] >= 2,
                  box[3] - box[1] >= 2 else { throw RawFileError("ActiveArea \(box) is not inside the image") }
            activeArea = PixelRect(x: Int(box[1]), y: Int(box[0]), width: Int(box[3] - box[1]), height: Int(box[2] - box[0]))
        }

        /// Every tile or strip decoded into `out` (`width` samples a row); the parts of edge
        /// tiles past the image are dropped.
        func readSamples(_ tiff: TIFFReader, into out: UnsafeMutablePointer<UInt16>) throws(RawFileError) {
            let across = (width + tileWidth - 1) / tileWidth
            for (index, (offset, count)) in zip(offsets, counts).enumerated() {
                let start = Int(offset), length = Int(count)
                guard start >= 0, length > 0, start + length <= tiff.bytes.count else {
                    throw RawFileError("tile \(index) lies outside the file")
                }
                let left = index % across * tileWidth, top = index / across * tileHeight
                let columns = min(tileWidth, width - left), rows = min(tileHeight, height - top)
                try tiff.bytes.withUnsafeBufferPointer { file throws(RawFileError) in
                    let data = UnsafeBufferPointer(rebasing: file[start..<(start + length)])
                    if compression == 7 {
                        let tile = try LosslessJPEGDecoder.decode(data)
                        guard tile.width * tile.height >= tileWidth * rows else {
                            throw RawFileError("tile \(index) holds \(tile.width * tile.height) samples, not \(tileWidth * rows)")
                        }
                        tile.samples.withUnsafeBufferPointer { samples in
                            for y in 0..<rows {
                                (out + (top + y) * width + left).update(from: samples.baseAddress! + y * tileWidth, count: columns)
                            }
                        }
                    } else {
                        // 8 or 16 bits in the file's byte order; other sizes packed MSB first,
                        // each row starting on a byte (TIFF's rule).
                        let rowBytes = (tileWidth * bitsPerSample + 7) / 8
                        guard length >= rowBytes * rows else { throw RawFileError("strip \(index) is short") }
                        for y in 0..<rows {
                            let row = out + (top + y) * width + left
                            let source = data.baseAddress! + y * rowBytes
                            switch bitsPerSample {
                            case 8: for x in 0..<columns { row[x] = UInt16(source[x]) }
                            case 16:
                                for x in 0..<columns {
                                    let (first, second) = (UInt16(source[2 * x]), UInt16(source[2 * x + 1]))
                                    row[x] = tiff.littleEndian ? first | second << 8 : first << 8 | second
                                }
                            default: Self.unpack(source, bits: bitsPerSample, count: columns, into: row)
                            }
                        }
                    }
                }
            }
        }

        /// `count` samples of `bits` bits packed MSB first from `source`.
        private static func unpack(_ source: UnsafePointer<UInt8>, bits: Int, count: Int, into row: UnsafeMutablePointer<UInt16>) {
            var buffer: UInt32 = 0, held = 0, at = 0
            let mask = UInt32(1 << bits - 1)
            for x in 0..<count {
                while held < bits {
                    buffer = buffer << 8 | UInt32(source[at])
                    at += 1
                    held += 8
                }
                held -= bits
                row[x] = UInt16(truncatingIfNeeded: buffer >> UInt32(held) & mask)
            }
        }
    }
}
