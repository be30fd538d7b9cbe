import ReflexCore
import ReflexFormats
import ReflexHardware
import ReflexISP

/// Makes a photo's files from its frame: the full-resolution render (the photo ISP, with
/// the preview's colour) encoded as JPEG, and the raw data as DNG with a small preview; which
/// of them the format at the press asked for. For Enhanced RAW the raw is the press's frame
/// merged with the ring's others (`RawBurstMerge`), stored losslessly, and the JPEG is
/// developed from that merge. Its buffers are kept from photo to photo (they
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
        /// The frames merged into its raw (1: the frame as taken).
        public var framesMerged = 1
    }

    public let describer: PhotoDescriber
    private var isp: PhotoISP?
    /// The viewfinder's ISP, for a RAW's small preview.
    private var previewISP: PreviewISP?
    private var rendered: [UInt8] = []

    /// Where an Enhanced RAW's merge may run side by side (`PhotoHelperThreads`).
    private let parallel: ParallelWork

    public init(describer: PhotoDescriber, parallel: ParallelWork = .sequential) {
        self.describer = describer
        self.parallel = parallel
    }

    /// A raw mosaic as the developer reads it: the frame's own, or Enhanced RAW's merge.
    struct RawSource {
        let samples: UnsafeRawPointer
        let layout: RawLayout
        let parameters: ISPParameters
        /// The frames merged into it (1: a plain frame).
        let frameCount: Int
        let noise: NoiseProfile?
    }

    /// JPEG quality: the photo's settings' unless given.
    public func develop(_ capture: TakenPhoto, jpegQuality: Int? = nil) throws(PhotoEncodingError) -> Developed {
        let jpegQuality = jpegQuality ?? capture.settings.jpegQuality.quality
        let frame = capture.frame
        guard let mode = frame.mode else { throw PhotoEncodingError("the frame has no mode") }
        let crop = PhotoDeveloper.crop(width: mode.width, height: mode.height, framing: capture.press.framing,
                                       frameZoom: frame.sensorZoom)
        guard let layout = mode.rawLayout else {
            return try developPicture(capture, mode: mode, crop: crop, jpegQuality: jpegQuality)
        }
        let parameters = frame.parameters ?? ISPParameters(blackLevel: 0, whiteLevel: layout.format.maximumValue)
        let own = RawSource(samples: UnsafeRawPointer(frame.frame.baseAddress!), layout: layout, parameters: parameters,
                            frameCount: 1, noise: nil)
        let alternates = PhotoDeveloper.alternates(of: capture, layout: layout)
        guard capture.settings.format.merges, !alternates.isEmpty else {
            return try developRaw(capture, own, crop: crop, jpegQuality: jpegQuality, compression: .none)
        }
        // Enhanced RAW: the press's frame and the ring's others merged into one mosaic, stored
        // losslessly (its 16 bits would double a plain DNG's size uncompressed).
        let single = describer.raw(capture, parameters: parameters, crop: crop).noiseProfile
        let merged = RawBurstMerge.merge([own.samples] + alternates, layout: layout, blackLevel: parameters.blackLevel,
                                         whiteLevel: parameters.whiteLevel, noise: single ?? PhotoDeveloper.unknownNoise,
                                         parallel: parallel)
        var scaled = parameters
        (scaled.blackLevel, scaled.whiteLevel) = (merged.blackLevel, merged.whiteLevel)
        return try merged.samples.withUnsafeBufferPointer { samples throws(PhotoEncodingError) in
            let source = RawSource(samples: UnsafeRawPointer(samples.baseAddress!), layout: merged.layout(cfa: layout.format.cfa),
                                   parameters: scaled, frameCount: merged.frameCount, noise: merged.noise)
            return try developRaw(capture, source, crop: crop, jpegQuality: jpegQuality, compression: .losslessJPEG)
        }
    }

    /// Where the board gives no noise profile: a merge still needs a scale for "different".
    static let unknownNoise = NoiseProfile(scale: 2e-4, offset: 2e-6)

    /// The photo's other frames that can be merged with it (of its own layout).
    static func alternates(of capture: TakenPhoto, layout: RawLayout) -> [UnsafeRawPointer] {
        (0..<capture.alternateCount).compactMap { index in
            guard let copy = capture.alternates[index], copy.mode?.rawLayout == layout, let base = copy.frame.baseAddress
            else { return nil }
            return UnsafeRawPointer(base)
        }
    }

    /// A raw photo's files: the DNG of `source`, and the JPEG developed from it where the
    /// format asks for one.
    private func developRaw(_ capture: TakenPhoto, _ source: RawSource, crop: PixelRect?, jpegQuality: Int,
                            compression: DNGCompression) throws(PhotoEncodingError) -> Developed {
        var raw = describer.raw(capture, parameters: source.parameters, crop: crop)
        if let noise = source.noise { raw.noiseProfile = noise }
        if source.frameCount > 1 { raw.framesMerged = source.frameCount }
        let photo = describer.photo(capture)
        // A RAW alone needs no full-resolution picture: its small preview is the viewfinder's
        // own rendering (a burst of RAWs saves at the card's pace, not the demosaic's).
        guard capture.settings.format.savesJPEG else {
            let (preview, width, height) = smallPreview(source, crop: crop)
            let dng = try preview.withUnsafeBufferPointer { pixels throws(PhotoEncodingError) in
                try DNGEncoder.encode(raw: source.samples, layout: source.layout, photo: photo, rawDescription: raw,
                                      preview: RGBImage(pixels: pixels.baseAddress!, width: width, height: height),
                                      compression: compression)
            }
            return Developed(files: [("DNG", dng)], thumbnail: preview, thumbnailWidth: width, thumbnailHeight: height,
                             framesMerged: source.frameCount)
        }
        renderRaw(source, crop: crop)
        let width = crop?.width ?? source.layout.width, height = crop?.height ?? source.layout.height
        let savesRaw = capture.settings.format.savesRaw
        var developed = try withPreview(width: width, height: height) { image, preview throws(PhotoEncodingError) in
            let jpeg = try JPEGEncoder.encode(image, quality: jpegQuality, photo: photo, thumbnailSource: preview)
            guard savesRaw else { return [("JPG", jpeg)] }
            let dng = try DNGEncoder.encode(raw: source.samples, layout: source.layout, photo: photo, rawDescription: raw,
                                            preview: preview, compression: compression)
            return [("DNG", dng), ("JPG", jpeg)]
        }
        developed.framesMerged = source.frameCount
        return developed
    }

    /// A photo from a frame that is no raw (YUYV): a JPEG alone.
    private func developPicture(_ capture: TakenPhoto, mode: CameraSession.Mode, crop: PixelRect?,
                                jpegQuality: Int) throws(PhotoEncodingError) -> Developed {
        guard mode.fourCC == StreamFormatChoice.yuyv else {
            throw PhotoEncodingError("photos from \(FourCC(mode.fourCC)) frames are not supported")
        }
        let width = crop?.width ?? mode.width, height = crop?.height ?? mode.height
        if rendered.count < width * height * 3 { rendered = [UInt8](repeating: 0, count: width * height * 3) }
        rendered.withUnsafeMutableBufferPointer { out in
            YUYVConversion.toRGB(capture.frame.frame.baseAddress!, width: mode.width, height: mode.height,
                                 bytesPerLine: mode.bytesPerLine, crop: crop, into: out.baseAddress!, stride: width * 3)
        }
        let photo = describer.photo(capture)
        return try withPreview(width: width, height: height) { image, preview throws(PhotoEncodingError) in
            [("JPG", try JPEGEncoder.encode(image, quality: jpegQuality, photo: photo, thumbnailSource: preview))]
        }
    }

    /// `files` made from the rendered picture and its small preview; the preview is the thumbnail.
    private func withPreview(width: Int, height: Int,
                             files: (RGBImage, RGBImage) throws(PhotoEncodingError) -> [(extension: String, bytes: [UInt8])])
        throws(PhotoEncodingError) -> Developed {
        try rendered.withUnsafeBufferPointer { pixels throws(PhotoEncodingError) in
            let image = RGBImage(pixels: pixels.baseAddress!, width: width, height: height)
            let previewWidth = min(PhotoDeveloper.previewWidth, width)
            let previewHeight = ImageDownscaler.height(of: image, scaledToWidth: previewWidth)
            let preview = ImageDownscaler.downscale(image, width: previewWidth, height: previewHeight)
            let made = try preview.withUnsafeBufferPointer { small throws(PhotoEncodingError) in
                try files(image, RGBImage(pixels: small.baseAddress!, width: previewWidth, height: previewHeight))
            }
            return Developed(files: made, thumbnail: preview, thumbnailWidth: previewWidth, thumbnailHeight: previewHeight)
        }
    }

    /// The viewfinder's rendering of `source`, `previewWidth` wide: a RAW's own preview.
    private func smallPreview(_ source: RawSource, crop: PixelRect?) -> (rgb: [UInt8], width: Int, height: Int) {
        let layout = source.layout
        let area = crop ?? PixelRect(x: 0, y: 0, width: layout.width, height: layout.height)
        let width = min(PhotoDeveloper.previewWidth, area.width)
        let height = max(1, (area.height * width + area.width / 2) / area.width)
        if previewISP == nil || previewISP!.maximumSourceWidth < layout.width || previewISP!.maximumSourceHeight < layout.height {
            previewISP = PreviewISP(maximumSourceWidth: layout.width, maximumSourceHeight: layout.height,
                                    maximumOutputWidth: PhotoDeveloper.previewWidth)
        }
        let isp = previewISP!
        isp.setParameters(source.parameters, format: layout.format)
        var xrgb = [UInt32](repeating: 0, count: width * height)
        xrgb.withUnsafeMutableBufferPointer { out in
            isp.renderBayer(source.samples, layout: layout, crop: crop, into: out.baseAddress!, outputWidth: width,
                            outputHeight: height, outputStride: width,
                            destination: PixelRect(x: 0, y: 0, width: width, height: height))
        }
        var preview = [UInt8](repeating: 0, count: width * height * 3)
        for (index, pixel) in xrgb.enumerated() {
            preview[index * 3] = UInt8(truncatingIfNeeded: pixel >> 16)
            preview[index * 3 + 1] = UInt8(truncatingIfNeeded: pixel >> 8)
            preview[index * 3 + 2] = UInt8(truncatingIfNeeded: pixel)
        }
        return (preview, width, height)
    }

    /// The part of a frame showing the middle 1/`frameZoom` of the zoom-1 picture that
    /// `framing` shows (even-aligned, for the colour filter), or nil for all of it.
    static func crop(width: Int, height: Int, framing: Framing, frameZoom: Double) -> PixelRect? {
        guard let area = framing.crop(inFrameWidth: width, height: height, frameZoom: frameZoom) else { return nil }
        let x = area.x & ~1, y = area.y & ~1
        return PixelRect(x: x, y: y, width: min(area.width & ~1, width - x), height: min(area.height & ~1, height - y))
    }

    /// Renders `source` (its `crop`) into `rendered` with the photo ISP.
    private func renderRaw(_ source: RawSource, crop: PixelRect?) {
        let layout = source.layout
        let width = crop?.width ?? layout.width, height = crop?.height ?? layout.height
        if rendered.count < width * height * 3 { rendered = [UInt8](repeating: 0, count: width * height * 3) }
        if isp == nil || isp!.maximumWidth < layout.width {
            isp = PhotoISP(maximumWidth: layout.width, maximumSourceWidth: layout.width)
        }
        rendered.withUnsafeMutableBufferPointer { out in
            isp!.render(source.samples, layout: layout, parameters: source.parameters, crop: crop,
                        into: out.baseAddress!, outputStride: width * 3)
        }
    }
}
