import CFFmpeg
import CTurboJPEG
import ReflexCore
import ReflexISP

/// A card's photo or movie made ready for review's single view: fitted inside the panel with its aspect
/// kept, turned upright by its Orientation tag, in the panel's XRGB pixels. Decoded by
/// TurboJPEG at the smallest of its scales (½, ¼, ⅛ of the file) that is still at least the
/// panel's size, then area-averaged down to it: a 12 MP JPEG is decoded at an eighth, a
/// quarter or half of its pixels, never whole, and never upscaled from a smaller decode.
public struct ReviewPicture: Sendable {
    public let width: Int
    public let height: Int
    /// `width` × `height` XRGB pixels, rows `width` apart.
    public let pixels: [UInt32]
    /// The file's picture as stored (before turning): what 100 % zoom shows.
    public let fileWidth: Int
    public let fileHeight: Int
    public let orientation: PhotoOrientation
    /// A movie's length in seconds (its first picture is the poster); nil for a photo.
    public var movieSeconds: Double?
    /// A small picture the file carries (a DNG's preview, read where its raw cannot be):
    /// nothing to zoom into.
    public var isPreview = false

    /// Why a file cannot be shown ("Cannot show this file" on screen, the detail in the log).
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    /// The most pixels a JPEG review opens may have: a 100-megapixel camera's (GFX 100:
    /// 11648x8736), with room.
    public static let largestJPEGPixels = 110_000_000

    /// `jpeg` fitted inside `panelWidth` × `panelHeight`.
    public static func jpeg(_ jpeg: [UInt8], fitting panelWidth: Int, _ panelHeight: Int) throws(Failure) -> ReviewPicture {
        guard let handle = tjInitDecompress() else { throw Failure(description: "cannot start TurboJPEG") }
        defer { tjDestroy(handle) }
        var (width, height, subsampling, colourspace): (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
        guard tjDecompressHeader3(handle, jpeg, UInt(jpeg.count), &width, &height, &subsampling, &colourspace) == 0,
              width > 0, height > 0 else {
            throw Failure(description: "not a JPEG: " + String(cString: tjGetErrorStr2(handle)))
        }
        // Whatever the scale decoded, a progressive JPEG's decoder keeps the whole picture's
        // coefficients (3 bytes a pixel): a few bytes of header must not cost gigabytes.
        guard Int(width) * Int(height) <= largestJPEGPixels else {
            throw Failure(description: "a JPEG of \(width)x\(height) is larger than any camera's")
        }
        let orientation = ExifOrientationReader.orientation(ofJPEG: jpeg) ?? .upright
        let sideways = orientation == .turnedLeft || orientation == .turnedRight
        // The picture's size as stored, once fitted (the panel's sides swapped for a turned one).
        let fit = PixelRect(x: 0, y: 0, width: sideways ? panelHeight : panelWidth, height: sideways ? panelWidth : panelHeight)
            .fitting(sourceWidth: Int(width), sourceHeight: Int(height))
        let (scaledWidth, scaledHeight) = decodedSize(width: Int(width), height: Int(height), atLeast: fit.width, fit.height)
        var rgb = [UInt8](repeating: 0, count: scaledWidth * scaledHeight * 3)
        if tjDecompress2(handle, jpeg, UInt(jpeg.count), &rgb, Int32(scaledWidth), 0, Int32(scaledHeight),
                         Int32(TJPF_RGB.rawValue), Int32(TJFLAG_FASTDCT)) != 0 {
            // A warning (a camera's stray bytes) still gives the picture; a cut-off file does not.
            let message = String(cString: tjGetErrorStr2(handle))
            guard tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue), !message.contains("Premature end") else {
                throw Failure(description: "cannot decode the JPEG: " + message)
            }
        }
        return upright(rgb, width: scaledWidth, height: scaledHeight, fittedTo: fit, orientation: orientation,
                       fileWidth: Int(width), fileHeight: Int(height))
    }

    /// A movie's poster: its first picture fitted inside `panelWidth` × `panelHeight`, with
    /// its length. Decoded with FFmpeg's libraries; a damaged file is refused.
    public static func movie(path: String, fitting panelWidth: Int, _ panelHeight: Int) throws(Failure) -> ReviewPicture {
        do throws(MovieError) {
            let reader = try VideoFileReader(path: path)
            try reader.next()
            let fit = PixelRect(x: 0, y: 0, width: panelWidth, height: panelHeight)
                .fitting(sourceWidth: reader.width, sourceHeight: reader.height)
            var poster = upright(reader.rgb, width: reader.width, height: reader.height, fittedTo: fit, orientation: .upright,
                                 fileWidth: reader.width, fileHeight: reader.height)
            poster.movieSeconds = reader.duration
            return poster
        } catch {
            throw Failure(description: "cannot read the movie: \(error)")
        }
    }

    /// A DNG's raw developed by the viewfinder's ISP (half-size demosaic, area-scaled) to fit
    /// inside `panelWidth` × `panelHeight`, upright: the photo as the camera's JPEG shows it.
    public static func raw(_ raw: DNGRaw, fitting panelWidth: Int, _ panelHeight: Int) -> ReviewPicture {
        let sideways = raw.orientation == .turnedLeft || raw.orientation == .turnedRight
        let fit = PixelRect(x: 0, y: 0, width: sideways ? panelHeight : panelWidth, height: sideways ? panelWidth : panelHeight)
            .fitting(sourceWidth: raw.crop.width, sourceHeight: raw.crop.height)
        let (w, h) = (max(fit.width, 1), max(fit.height, 1))
        var xrgb = [UInt32](repeating: 0xFF00_0000, count: w * h)
        let isp = PreviewISP(maximumSourceWidth: raw.layout.width, maximumSourceHeight: raw.layout.height, maximumOutputWidth: w)
        isp.setParameters(raw.parameters, format: raw.layout.format)
        raw.samples.withUnsafeBytes { samples in
            xrgb.withUnsafeMutableBufferPointer { out in
                isp.renderBayer(samples.baseAddress!, layout: raw.layout, crop: raw.crop, into: out.baseAddress!, outputWidth: w,
                                outputHeight: h, outputStride: w, destination: PixelRect(x: 0, y: 0, width: w, height: h))
            }
        }
        return turned(xrgb, width: w, height: h, orientation: raw.orientation, fileWidth: raw.crop.width,
                      fileHeight: raw.crop.height)
    }

    /// A small RGB picture (a DNG's own preview, an EXIF thumbnail) fitted inside `panelWidth`
    /// × `panelHeight`, turned upright by `orientation`: a preview, never what zoom shows.
    public static func rgb(_ rgb: [UInt8], width: Int, height: Int, fitting panelWidth: Int, _ panelHeight: Int,
                           orientation: PhotoOrientation = .upright) -> ReviewPicture {
        let sideways = orientation == .turnedLeft || orientation == .turnedRight
        let fit = PixelRect(x: 0, y: 0, width: sideways ? panelHeight : panelWidth, height: sideways ? panelWidth : panelHeight)
            .fitting(sourceWidth: width, sourceHeight: height)
        var picture = upright(rgb, width: width, height: height, fittedTo: fit, orientation: orientation, fileWidth: width,
                              fileHeight: height)
        picture.isPreview = true
        return picture
    }

    /// `rgb` (`width` × `height`, rows `width * 3` apart) area-averaged to `fit`'s size as the
    /// panel's XRGB in one pass (libswscale's area filter, which has SIMD for it), then turned
    /// by `orientation`.
    private static func upright(_ rgb: [UInt8], width: Int, height: Int, fittedTo fit: PixelRect, orientation: PhotoOrientation,
                                fileWidth: Int, fileHeight: Int) -> ReviewPicture {
        let (w, h) = (max(fit.width, 1), max(fit.height, 1))
        var xrgb = [UInt32](repeating: 0xFF00_0000, count: w * h)
        if let scaler = sws_getContext(Int32(width), Int32(height), AV_PIX_FMT_RGB24, Int32(w), Int32(h), AV_PIX_FMT_BGRA,
                                       SWS_AREA, nil, nil, nil) {
            defer { sws_freeContext(scaler) }
            rgb.withUnsafeBufferPointer { source in
                xrgb.withUnsafeMutableBytes { out in
                    var sources: [UnsafePointer<UInt8>?] = [source.baseAddress, nil, nil, nil]
                    var sourceStrides: [Int32] = [Int32(width * 3), 0, 0, 0]
                    var destinations: [UnsafeMutablePointer<UInt8>?] = [out.baseAddress!.assumingMemoryBound(to: UInt8.self), nil, nil, nil]
                    var destinationStrides: [Int32] = [Int32(w * 4), 0, 0, 0]
                    _ = sws_scale(scaler, &sources, &sourceStrides, 0, Int32(height), &destinations, &destinationStrides)
                }
            }
        }
        return turned(xrgb, width: w, height: h, orientation: orientation, fileWidth: fileWidth, fileHeight: fileHeight)
    }

    /// `xrgb` (`w` × `h`) turned by `orientation`.
    private static func turned(_ xrgb: [UInt32], width w: Int, height h: Int, orientation: PhotoOrientation,
                               fileWidth: Int, fileHeight: Int) -> ReviewPicture {
        let turn = rotation(for: orientation)
        guard turn != .none else {
            return ReviewPicture(width: w, height: h, pixels: xrgb, fileWidth: fileWidth, fileHeight: fileHeight,
                                 orientation: orientation)
        }
        let (outWidth, outHeight) = turn == .clockwise90 || turn == .clockwise270 ? (h, w) : (w, h)
        var pixels = [UInt32](repeating: 0, count: w * h)
        xrgb.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { out in
                turn.copy(source.baseAddress!, width: w, height: h, sourceStride: w, into: out.baseAddress!, panelStride: outWidth)
            }
        }
        return ReviewPicture(width: outWidth, height: outHeight, pixels: pixels, fileWidth: fileWidth, fileHeight: fileHeight,
                             orientation: orientation)
    }

    /// TurboJPEG's size for the smallest of its scales (1, ½, ¼, ⅛) at least `atLeastWidth` ×
    /// `atLeastHeight`.
    public static func decodedSize(width: Int, height: Int, atLeast atLeastWidth: Int, _ atLeastHeight: Int) -> (Int, Int) {
        for denominator in [8, 4, 2] {
            let (w, h) = ((width + denominator - 1) / denominator, (height + denominator - 1) / denominator)
            if w >= atLeastWidth && h >= atLeastHeight { return (w, h) }
        }
        return (width, height)
    }

    /// How the stored picture is turned to be seen upright.
    static func rotation(for orientation: PhotoOrientation) -> PanelRotation {
        switch orientation {
        case .upright: .none
        case .upsideDown: .upsideDown
        case .turnedLeft: .clockwise90
        case .turnedRight: .clockwise270
        }
    }
}
