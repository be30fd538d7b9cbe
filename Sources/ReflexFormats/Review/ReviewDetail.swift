import CFFmpeg
import CTurboJPEG
import ReflexCore
import ReflexISP

/// A photo decoded for review's zoom: its JPEG decoded again from the file at the detail the
/// zoom needs (whole, or at TurboJPEG's ½, ¼ or ⅛ where that still gives a photo pixel a
/// screen pixel or more), upright, in the panel's XRGB; from it each view of a zoom or a pan
/// is cut and scaled to the screen, so 100 % shows the file's own pixels, never an upscaled
/// screen image.
public struct ReviewDetail: Sendable {
    /// The decoded picture, upright: `width` × `height` XRGB, rows `width` apart.
    public let width: Int
    public let height: Int
    public let pixels: [UInt32]
    /// Decoded pixels per file pixel: 1, ½, ¼ or ⅛.
    public let scale: Double

    /// `jpeg` decoded at the smallest of TurboJPEG's scales of at least `zoom` (screen pixels
    /// per file pixel, 1 and above: whole).
    public static func jpeg(_ jpeg: [UInt8], forZoom zoom: Double) throws(ReviewPicture.Failure) -> ReviewDetail {
        guard let handle = tjInitDecompress() else { throw ReviewPicture.Failure(description: "cannot start TurboJPEG") }
        defer { tjDestroy(handle) }
        var (width, height, subsampling, colourspace): (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
        guard tjDecompressHeader3(handle, jpeg, UInt(jpeg.count), &width, &height, &subsampling, &colourspace) == 0,
              width > 0, height > 0 else {
            throw ReviewPicture.Failure(description: "not a JPEG: " + String(cString: tjGetErrorStr2(handle)))
        }
        // A header is a few bytes: a 65535x65535 one must not cost 17 GB before it is read.
        guard Int(width) * Int(height) <= ReviewPicture.largestJPEGPixels else {
            throw ReviewPicture.Failure(description: "a JPEG of \(width)x\(height) is larger than any camera's")
        }
        let denominator = [8, 4, 2].first { 1 / Double($0) >= zoom * 0.999 } ?? 1
        let (w, h) = ((Int(width) + denominator - 1) / denominator, (Int(height) + denominator - 1) / denominator)
        // BGRX in memory is the panel's XRGB8888 read as little-endian words.
        var decoded = [UInt32](repeating: 0, count: w * h)
        let status = decoded.withUnsafeMutableBytes { out in
            tjDecompress2(handle, jpeg, UInt(jpeg.count), out.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(w), 0,
                          Int32(h), Int32(TJPF_BGRX.rawValue), 0)
        }
        if status != 0 {
            let message = String(cString: tjGetErrorStr2(handle))
            guard tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue), !message.contains("Premature end") else {
                throw ReviewPicture.Failure(description: "cannot decode the JPEG: " + message)
            }
        }
        let orientation = ExifOrientationReader.orientation(ofJPEG: jpeg) ?? .upright
        return turned(decoded, width: w, height: h, orientation: orientation, scale: 1 / Double(denominator))
    }

    /// A DNG's raw developed whole by our still pipeline (the photo ISP's full-resolution
    /// demosaic, band by band), upright: 100 % shows the sensor's own pixels.
    public static func raw(_ raw: DNGRaw) -> ReviewDetail {
        let (w, h) = (raw.crop.width, raw.crop.height)
        var pixels = [UInt32](repeating: 0, count: w * h)
        let isp = PhotoISP(maximumWidth: w, maximumSourceWidth: raw.layout.width)
        var band = [UInt8](repeating: 0, count: w * 3 * PhotoISP.bandRows)
        raw.samples.withUnsafeBytes { samples in
            pixels.withUnsafeMutableBufferPointer { out in
                band.withUnsafeMutableBufferPointer { rgb in
                    for top in stride(from: 0, to: h, by: PhotoISP.bandRows) {
                        let rows = min(PhotoISP.bandRows, h - top)
                        let crop = PixelRect(x: raw.crop.x, y: raw.crop.y + top, width: w, height: rows)
                        isp.render(samples.baseAddress!, layout: raw.layout, parameters: raw.parameters, crop: crop,
                                   into: rgb.baseAddress!, outputStride: w * 3)
                        for i in 0..<(rows * w) {
                            out[top * w + i] = 0xFF00_0000 | UInt32(rgb[3 * i]) << 16 | UInt32(rgb[3 * i + 1]) << 8
                                | UInt32(rgb[3 * i + 2])
                        }
                    }
                }
            }
        }
        return turned(pixels, width: w, height: h, orientation: raw.orientation, scale: 1)
    }

    /// `decoded` (`w` × `h`) turned upright by `orientation`.
    private static func turned(_ decoded: [UInt32], width w: Int, height h: Int, orientation: PhotoOrientation,
                               scale: Double) -> ReviewDetail {
        let turn = ReviewPicture.rotation(for: orientation)
        guard turn != .none else { return ReviewDetail(width: w, height: h, pixels: decoded, scale: scale) }
        let (uprightWidth, uprightHeight) = turn == .clockwise90 || turn == .clockwise270 ? (h, w) : (w, h)
        var upright = [UInt32](repeating: 0, count: w * h)
        decoded.withUnsafeBufferPointer { source in
            upright.withUnsafeMutableBufferPointer { out in
                turn.copy(source.baseAddress!, width: w, height: h, sourceStride: w, into: out.baseAddress!, panelStride: uprightWidth)
            }
        }
        return ReviewDetail(width: uprightWidth, height: uprightHeight, pixels: upright, scale: scale)
    }

    /// Where `zoom`'s view of the photo lands on its screen (the photo's visible part, centred
    /// on the zoom's point; the rest of the screen black).
    public static func place(of zoom: ReviewZoom) -> PixelRect {
        let visible = zoom.visible
        let x = Double(zoom.screenWidth) / 2 + (Double(visible.x) - zoom.centreX) * zoom.scale
        let y = Double(zoom.screenHeight) / 2 + (Double(visible.y) - zoom.centreY) * zoom.scale
        let left = max(0, Int(x.rounded())), top = max(0, Int(y.rounded()))
        return PixelRect(x: left, y: top, width: min(Int((Double(visible.width) * zoom.scale).rounded()), zoom.screenWidth - left),
                         height: min(Int((Double(visible.height) * zoom.scale).rounded()), zoom.screenHeight - top))
    }

    /// `zoom`'s view cut from the decoded picture and scaled (area-averaged down, bilinear up)
    /// into `panel` (`zoom`'s screen, rows `panelStride` apart) at `place(of: zoom)`.
    public func render(_ zoom: ReviewZoom, into panel: UnsafeMutablePointer<UInt32>, panelStride: Int) {
        let visible = zoom.visible, place = Self.place(of: zoom)
        // The visible part in decoded pixels (the file's scaled by the decode's scale).
        let x = min(Int(Double(visible.x) * scale), width - 1), y = min(Int(Double(visible.y) * scale), height - 1)
        let w = max(1, min(Int((Double(visible.width) * scale).rounded()), width - x))
        let h = max(1, min(Int((Double(visible.height) * scale).rounded()), height - y))
        guard place.width > 0, place.height > 0,
              let scaler = sws_getContext(Int32(w), Int32(h), AV_PIX_FMT_BGRA, Int32(place.width), Int32(place.height),
                                          AV_PIX_FMT_BGRA, place.width < w ? SWS_AREA : SWS_BILINEAR, nil, nil, nil) else { return }
        defer { sws_freeContext(scaler) }
        pixels.withUnsafeBufferPointer { source in
            let start = UnsafeRawPointer(source.baseAddress! + y * width + x).assumingMemoryBound(to: UInt8.self)
            var sources: [UnsafePointer<UInt8>?] = [start, nil, nil, nil]
            var sourceStrides: [Int32] = [Int32(width * 4), 0, 0, 0]
            let target = UnsafeMutableRawPointer(panel + place.y * panelStride + place.x).assumingMemoryBound(to: UInt8.self)
            var destinations: [UnsafeMutablePointer<UInt8>?] = [target, nil, nil, nil]
            var destinationStrides: [Int32] = [Int32(panelStride * 4), 0, 0, 0]
            _ = sws_scale(scaler, &sources, &sourceStrides, 0, Int32(h), &destinations, &destinationStrides)
        }
    }
}
