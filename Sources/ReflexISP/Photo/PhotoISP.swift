import ReflexCore

/// The photo's image pipeline: a raw frame in, 8-bit sRGB at full resolution out, rendered
/// the way the preview renders it (the same black level, white balance, digital gain, colour
/// matrix and sRGB curve, from the same ISPParameters) so the photo looks like the
/// viewfinder, with a full-resolution demosaic in place of the preview's half-size one.
///
/// Bands of rows: each thread renders its own band with an PhotoISP of its own.
public final class PhotoISP {
    /// Rows demosaiced at a time: a band's buffers stay in the cache.
    public static let bandRows = 32
    /// Linear 0…1 → its sRGB byte, in `gammaSteps` steps (finer than the preview's 12 bits:
    /// a photo's shadows are looked at closely).
    static let gammaSteps = 16383
    public var maximumWidth: Int { demosaic.maximumWidth }
    private let demosaic: PhotoDemosaic
    private let gamma: UnsafeMutablePointer<UInt8>

    public init(maximumWidth: Int, maximumSourceWidth: Int) {
        demosaic = PhotoDemosaic(maximumWidth: maximumWidth, maximumSourceWidth: maximumSourceWidth,
                                 maximumBandRows: PhotoISP.bandRows)
        gamma = .allocate(capacity: PhotoISP.gammaSteps + 1)
        for i in 0...PhotoISP.gammaSteps {
            gamma[i] = UInt8(PreviewISP.sRGBEncode(Double(i) / Double(PhotoISP.gammaSteps)) * 255 + 0.5)
        }
    }

    deinit { gamma.deallocate() }

    /// A linear value's index in the gamma table, clamped (a NaN compares false: 0).
    @inline(__always)
    static func step(_ linear: Float, _ steps: Float) -> Int {
        let scaled = linear * steps
        return scaled > 0 ? Int(min(scaled, steps) + 0.5) : 0
    }

    /// Renders output rows `rows` (default all) of `crop` (default the whole frame; even-
    /// aligned) into `output`, three bytes a pixel, rows `outputStride` bytes apart.
    public func render(_ frame: UnsafeRawPointer, layout: RawLayout, parameters: ISPParameters, crop: PixelRect? = nil,
                       into output: UnsafeMutablePointer<UInt8>, outputStride: Int, rows: Range<Int>? = nil) {
        let area = crop ?? PixelRect(x: 0, y: 0, width: layout.width, height: layout.height)
        precondition(outputStride >= area.width * 3, "output rows overlap")
        let m = parameters.colorMatrix.m
        let (m0, m1, m2) = (Float(m[0]), Float(m[1]), Float(m[2]))
        let (m3, m4, m5) = (Float(m[3]), Float(m[4]), Float(m[5]))
        let (m6, m7, m8) = (Float(m[6]), Float(m[7]), Float(m[8]))
        let steps = Float(PhotoISP.gammaSteps)
        let gamma = self.gamma
        let wanted = rows ?? 0..<area.height
        var start = wanted.lowerBound
        while start < wanted.upperBound {
            let band = start..<min(start + PhotoISP.bandRows, wanted.upperBound)
            demosaic.demosaic(frame, layout: layout, parameters: parameters, crop: area, rows: band) { row, red, green, blue in
                var out = output + row * outputStride
                for i in 0..<area.width {
                    let r = red[i], g = green[i], b = blue[i]
                    out[0] = gamma[PhotoISP.step(m0 * r + m1 * g + m2 * b, steps)]
                    out[1] = gamma[PhotoISP.step(m3 * r + m4 * g + m5 * b, steps)]
                    out[2] = gamma[PhotoISP.step(m6 * r + m7 * g + m8 * b, steps)]
                    out += 3
                }
            }
            start = band.upperBound
        }
    }
}
