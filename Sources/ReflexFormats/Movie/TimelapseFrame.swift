import CTurboJPEG
import ReflexCore

/// A photo made into a timelapse's frame: upright, fitted inside the movie's picture with its
/// aspect kept (black around it where the two differ). A photo of the movie's own size is
/// decoded by TurboJPEG straight into the picture; any other is fitted as review fits it.
/// Made once and filled photo after photo (so a second thread can fill one while the
/// encoder takes another).
public final class TimelapseFrame: @unchecked Sendable {
    public let width: Int
    public let height: Int
    /// XRGB, the same memory every photo: black where no photo covers it.
    public private(set) var pixels: [UInt32]
    /// The same in the encoder's 4:2:0, converted here (on the thread that fills it).
    public let yuv: YUVPicture
    /// Where the last photo was placed: a photo of another shape clears the black around it.
    private var lastPlace: PixelRect?
    /// TurboJPEG's decoder, kept for every photo.
    private let decompressor: tjhandle?

    /// A timelapse keeps its JPEGs' colours (`VideoColour.jpeg`).
    public static let colour = VideoColour.jpeg

    public init(width: Int, height: Int) {
        (self.width, self.height) = (width, height)
        pixels = [UInt32](repeating: 0xFF00_0000, count: width * height)
        yuv = YUVPicture(width: width, height: height, colour: TimelapseFrame.colour)
        decompressor = tjInitDecompress()
    }

    deinit { if let decompressor { tjDestroy(decompressor) } }

    /// The picture made of `jpeg`; a photo that cannot be read says why.
    public func fill(from jpeg: [UInt8]) throws(TimelapseEncoder.Failure) {
        // The camera's own JPEGs (the movie's size, 4:2:0, upright): their planes as they are.
        if decodePlanes(jpeg) { return }
        if !decodeInPlace(jpeg) {
            let picture: ReviewPicture
            do {
                picture = try ReviewPicture.jpeg(jpeg, fitting: width, height)
            } catch {
                throw .photo(error.description)
            }
            place(picture)
        }
        pixels.withUnsafeBufferPointer { yuv.convert($0.baseAddress!) }
    }

    /// Decodes `jpeg`'s 4:2:0 planes straight into `yuv` when it is the movie's size, 4:2:0
    /// and upright; false otherwise.
    private func decodePlanes(_ jpeg: [UInt8]) -> Bool {
        guard let decompressor else { return false }
        var (jpegWidth, jpegHeight, subsampling, colourspace): (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
        guard tjDecompressHeader3(decompressor, jpeg, UInt(jpeg.count), &jpegWidth, &jpegHeight, &subsampling, &colourspace) == 0,
              Int(jpegWidth) == width, Int(jpegHeight) == height, subsampling == Int32(TJSAMP_420.rawValue),
              colourspace == Int32(TJCS_YCbCr.rawValue),
              (ExifOrientationReader.orientation(ofJPEG: jpeg) ?? .upright) == .upright else { return false }
        let (lumaBytes, chromaBytes) = (width * height, width * height / 4)
        let status = yuv.planes.withUnsafeMutableBufferPointer { planes -> Int32 in
            let base = planes.baseAddress!
            var destinations: [UnsafeMutablePointer<UInt8>?] = [base, base + lumaBytes, base + lumaBytes + chromaBytes]
            var strides: [Int32] = [Int32(width), Int32(width / 2), Int32(width / 2)]
            return tjDecompressToYUVPlanes(decompressor, jpeg, UInt(jpeg.count), &destinations, jpegWidth, &strides, jpegHeight,
                                           Int32(TJFLAG_FASTDCT))
        }
        guard status == 0 || tjGetErrorCode(decompressor) == Int32(TJERR_WARNING.rawValue) else { return false }
        // (The XRGB picture no longer shows this photo: a fitted one after it starts afresh.)
        lastPlace = nil
        return true
    }

    /// Decodes `jpeg` into the pixels as XRGB when it is the movie's size and upright; false
    /// otherwise (or when it cannot be decoded: the fitting path says why).
    private func decodeInPlace(_ jpeg: [UInt8]) -> Bool {
        guard let decompressor else { return false }
        var (jpegWidth, jpegHeight, subsampling, colourspace): (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
        guard tjDecompressHeader3(decompressor, jpeg, UInt(jpeg.count), &jpegWidth, &jpegHeight, &subsampling, &colourspace) == 0,
              Int(jpegWidth) == width, Int(jpegHeight) == height,
              (ExifOrientationReader.orientation(ofJPEG: jpeg) ?? .upright) == .upright else { return false }
        lastPlace = PixelRect(x: 0, y: 0, width: width, height: height)
        let (rowBytes, flags) = (Int32(width * 4), Int32(TJFLAG_FASTDCT))
        let status = pixels.withUnsafeMutableBytes { pixels in
            // (XRGB words, little-endian: B, G, R, X in memory.)
            tjDecompress2(decompressor, jpeg, UInt(jpeg.count), pixels.baseAddress!.assumingMemoryBound(to: UInt8.self),
                          jpegWidth, rowBytes, jpegHeight, Int32(TJPF_BGRX.rawValue), flags)
        }
        return status == 0 || tjGetErrorCode(decompressor) == Int32(TJERR_WARNING.rawValue)
    }

    /// `picture` in the middle of the pixels; the black around it made again where the last
    /// photo was of another shape.
    private func place(_ picture: ReviewPicture) {
        let place = PixelRect(x: 0, y: 0, width: width, height: height)
            .fitting(sourceWidth: picture.width, sourceHeight: picture.height)
        let (copyWidth, copyHeight) = (min(picture.width, place.width), min(picture.height, place.height))
        if lastPlace != place {
            for index in pixels.indices { pixels[index] = 0xFF00_0000 }
            lastPlace = place
        }
        let rowLength = width
        pixels.withUnsafeMutableBufferPointer { pixels in
            picture.pixels.withUnsafeBufferPointer { source in
                for row in 0..<copyHeight {
                    let into = pixels.baseAddress! + (place.y + row) * rowLength + place.x
                    into.update(from: source.baseAddress! + row * picture.width, count: copyWidth)
                }
            }
        }
    }
}
