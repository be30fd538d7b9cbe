import ReflexCore
import ReflexFormats
import ReflexHardware
import ReflexISP

/// Makes a photo's files from its frame: the full-resolution render (the photo ISP, with
/// the preview's colour) encoded as JPEG, and the raw data as DNG with a small preview; which
/// of them the format at the press asked for. Its buffers are kept from photo to photo (they
/// grow only when a larger frame comes). One thread.
public final class PhotoDeveloper {
    /// The DNG's own preview (IFD0) and the on-screen thumbnail: this wide.
    public static let previewWidth = DNGEncoder.previewWidth

    public struct Developed {
        /// Each file's extension and bytes, in the order they are written (the DNG first: a
        /// pair cut short by a power loss keeps the raw).
        public var files: [(extension: String, bytes: [UInt8])]
        /// A small picture of the photo for the screen (RGB, `PhotoDeveloper.previewWidth` wide).
        public var thumbnail: [UInt8]
        public var thumbnailWidth: Int
        public var thumbnailHeight: Int
    }

    public let describer: PhotoDescriber
    private var isp: PhotoISP?
    /// The viewfinder's ISP, for a RAW's small preview.
    private var previewISP: PreviewISP?
    private var rendered: [UInt8] = []

    public init(describer: PhotoDescriber) { self.describer = describer }

    /// JPEG quality: the photo's settings' unless given.
    public func develop(_ capture: TakenPhoto, jpegQuality: Int? = nil) throws(PhotoEncodingError) -> Developed {
        let jpegQuality = jpegQuality ?? capture.settings.jpegQuality.quality
        let frame = capture.frame
        guard let mode = frame.mode else { throw PhotoEncodingError("the frame has no mode") }
        let crop = PhotoDeveloper.crop(width: mode.width, height: mode.height, framing: capture.press.framing,
                                       frameZoom: frame.sensorZoom)
        // A RAW alone needs no full-resolution picture: its small preview is the viewfinder's
        // own rendering (a burst of RAWs saves at the card's pace, not the demosaic's).
        if capture.settings.format == .raw, let layout = mode.rawLayout {
            return try developRawOnly(capture, layout: layout, crop: crop)
        }
        let picture = try render(frame, mode: mode, crop: crop)
        let photo = describer.photo(capture)
        let width = crop?.width ?? mode.width, height = crop?.height ?? mode.height
        return try rendered.withUnsafeBufferPointer { pixels throws(PhotoEncodingError) in
            let image = RGBImage(pixels: pixels.baseAddress!, width: width, height: height)
            let previewWidth = min(PhotoDeveloper.previewWidth, width)
            let previewHeight = ImageDownscaler.height(of: image, scaledToWidth: previewWidth)
            let preview = ImageDownscaler.downscale(image, width: previewWidth, height: previewHeight)
            var files: [(extension: String, bytes: [UInt8])] = []
            if capture.settings.format.savesRaw, let layout = mode.rawLayout, let parameters = picture {
                let raw = describer.raw(capture, parameters: parameters, crop: crop)
                let dng = try preview.withUnsafeBufferPointer { previewPixels throws(PhotoEncodingError) in
                    try DNGEncoder.encode(raw: frame.frame.baseAddress!, layout: layout, photo: photo, rawDescription: raw,
                                          preview: RGBImage(pixels: previewPixels.baseAddress!, width: previewWidth,
                                                            height: previewHeight))
                }
                files.append(("DNG", dng))
            }
            if capture.settings.format != .raw || mode.rawLayout == nil {
                let jpeg = try preview.withUnsafeBufferPointer { small throws(PhotoEncodingError) in
                    try JPEGEncoder.encode(image, quality: jpegQuality, photo: photo,
                                           thumbnailSource: RGBImage(pixels: small.baseAddress!, width: previewWidth,
                                                                     height: previewHeight))
                }
                files.append(("JPG", jpeg))
            }
            return Developed(files: files, thumbnail: preview, thumbnailWidth: previewWidth, thumbnailHeight: previewHeight)
        }
    }

    private func developRawOnly(_ capture: TakenPhoto, layout: RawLayout, crop: PixelRect?) throws(PhotoEncodingError) -> Developed {
        let frame = capture.frame
        let parameters = frame.parameters ?? ISPParameters(blackLevel: 0, whiteLevel: layout.format.maximumValue)
        let area = crop ?? PixelRect(x: 0, y: 0, width: layout.width, height: layout.height)
        let width = min(PhotoDeveloper.previewWidth, area.width)
        let height = max(1, (area.height * width + area.width / 2) / area.width)
        if previewISP == nil || previewISP!.maximumSourceWidth < layout.width || previewISP!.maximumSourceHeight < layout.height {
            previewISP = PreviewISP(maximumSourceWidth: layout.width, maximumSourceHeight: layout.height,
                                    maximumOutputWidth: PhotoDeveloper.previewWidth)
        }
        let isp = previewISP!
        isp.setParameters(parameters, format: layout.format)
        var xrgb = [UInt32](repeating: 0, count: width * height)
        xrgb.withUnsafeMutableBufferPointer { out in
            isp.renderBayer(frame.frame.baseAddress!, layout: layout, crop: crop, into: out.baseAddress!, outputWidth: width,
                            outputHeight: height, outputStride: width,
                            destination: PixelRect(x: 0, y: 0, width: width, height: height))
        }
        var preview = [UInt8](repeating: 0, count: width * height * 3)
        for (index, pixel) in xrgb.enumerated() {
            preview[index * 3] = UInt8(truncatingIfNeeded: pixel >> 16)
            preview[index * 3 + 1] = UInt8(truncatingIfNeeded: pixel >> 8)
            preview[index * 3 + 2] = UInt8(truncatingIfNeeded: pixel)
        }
        let raw = describer.raw(capture, parameters: parameters, crop: crop)
        let dng = try preview.withUnsafeBufferPointer { pixels throws(PhotoEncodingError) in
            try DNGEncoder.encode(raw: frame.frame.baseAddress!, layout: layout, photo: describer.photo(capture),
                                  rawDescription: raw, preview: RGBImage(pixels: pixels.baseAddress!, width: width, height: height))
        }
        return Developed(files: [("DNG", dng)], thumbnail: preview, thumbnailWidth: width, thumbnailHeight: height)
    }

    /// The part of a frame showing the middle 1/`frameZoom` of the zoom-1 picture that
    /// `framing` shows (even-aligned, for the colour filter), or nil for all of it.
    static func crop(width: Int, height: Int, framing: Framing, frameZoom: Double) -> PixelRect? {
        guard let area = framing.crop(inFrameWidth: width, height: height, frameZoom: frameZoom) else { return nil }
        let x = area.x & ~1, y = area.y & ~1
        return PixelRect(x: x, y: y, width: min(area.width & ~1, width - x), height: min(area.height & ~1, height - y))
    }

    /// Renders the frame (its `crop`) into `rendered`; returns the ISP parameters a raw frame
    /// was rendered with.
    private func render(_ frame: FrameCopy, mode: CameraSession.Mode, crop: PixelRect?) throws(PhotoEncodingError) -> ISPParameters? {
        let width = crop?.width ?? mode.width, height = crop?.height ?? mode.height
        if rendered.count < width * height * 3 { rendered = [UInt8](repeating: 0, count: width * height * 3) }
        guard let layout = mode.rawLayout else {
            guard mode.fourCC == CaptureFormatChoice.yuyv else {
                throw PhotoEncodingError("photos from \(FourCC(mode.fourCC)) frames are not supported")
            }
            rendered.withUnsafeMutableBufferPointer { out in
                YUYVConversion.toRGB(frame.frame.baseAddress!, width: mode.width, height: mode.height,
                                     bytesPerLine: mode.bytesPerLine, crop: crop, into: out.baseAddress!, stride: width * 3)
            }
            return nil
        }
        let parameters = frame.parameters
            ?? ISPParameters(blackLevel: 0, whiteLevel: layout.format.maximumValue)
        if isp == nil || isp!.maximumWidth < mode.width {
            isp = PhotoISP(maximumWidth: mode.width, maximumSourceWidth: mode.width)
        }
        rendered.withUnsafeMutableBufferPointer { out in
            isp!.render(frame.frame.baseAddress!, layout: layout, parameters: parameters, crop: crop,
                        into: out.baseAddress!, outputStride: width * 3)
        }
        return parameters
    }
}
