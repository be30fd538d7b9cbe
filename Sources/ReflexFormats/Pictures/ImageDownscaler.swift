import ReflexCore

/// Resamples an RGB picture by area averaging (a box filter with exact fractional edges):
/// each output pixel is the mean of the source area it covers. Any sizes work, larger or
/// smaller: the DNG's preview from a rendered photo, the JPEG's 160×120 thumbnail.
public enum ImageDownscaler {
    /// `image` at `width` × `height` (the aspect is the caller's), rows `width * 3` bytes.
    public static func downscale(_ image: RGBImage, width: Int, height: Int) -> [UInt8] {
        precondition(width > 0 && height > 0, "an image has pixels")
        var output = [UInt8](repeating: 0, count: width * height * 3)
        output.withUnsafeMutableBufferPointer {
            resample(image, into: $0.baseAddress!, stride: width * 3, width, height)
        }
        return output
    }

    /// `image` fitted inside `width` × `height` with its aspect kept, centred on black.
    public static func letterboxed(_ image: RGBImage, width: Int, height: Int) -> [UInt8] {
        precondition(width > 0 && height > 0, "an image has pixels")
        let fit = PixelRect(x: 0, y: 0, width: width, height: height)
            .fitting(sourceWidth: image.width, sourceHeight: image.height)
        let (w, h) = (max(1, fit.width), max(1, fit.height))
        var output = [UInt8](repeating: 0, count: width * height * 3)
        output.withUnsafeMutableBufferPointer {
            resample(image, into: $0.baseAddress! + (fit.y * width + fit.x) * 3, stride: width * 3, w, h)
        }
        return output
    }

    /// The height of a copy of `image` `width` wide, its aspect kept (the DNG preview's size).
    public static func height(of image: RGBImage, scaledToWidth width: Int) -> Int {
        max(1, Int((Double(image.height) * Double(width) / Double(image.width)).rounded()))
    }

    /// Rows one at a time: each source row is averaged across once (kept while the next
    /// output row shares it), then added into the output row with its vertical weight.
    private static func resample(_ image: RGBImage, into output: UnsafeMutablePointer<UInt8>, stride: Int,
                                 _ width: Int, _ height: Int) {
        precondition(image.width > 0 && image.height > 0, "an image has pixels")
        let columns = BoxCoverage(source: image.width, destination: width)
        let rows = BoxCoverage(source: image.height, destination: height)
        var across = [Float](repeating: 0, count: width * 3), sums = across
        var rowAcross = -1
        for y in 0..<height {
            for c in sums.indices { sums[c] = 0 }
            for term in rows.terms(of: y) {
                let (sourceRow, weight) = (rows.sources[term], rows.weights[term])
                if sourceRow != rowAcross {
                    average(image.pixels + sourceRow * image.stride, columns, into: &across)
                    rowAcross = sourceRow
                }
                for c in sums.indices { sums[c] += weight * across[c] }
            }
            let line = output + y * stride
            for c in sums.indices { line[c] = UInt8(min(255, sums[c] + 0.5)) }
        }
    }

    private static func average(_ row: UnsafePointer<UInt8>, _ columns: BoxCoverage, into across: inout [Float]) {
        for x in 0..<columns.destination {
            var (r, g, b): (Float, Float, Float) = (0, 0, 0)
            for term in columns.terms(of: x) {
                let (pixel, weight) = (row + columns.sources[term] * 3, columns.weights[term])
                r += weight * Float(pixel[0])
                g += weight * Float(pixel[1])
                b += weight * Float(pixel[2])
            }
            (across[x * 3], across[x * 3 + 1], across[x * 3 + 2]) = (r, g, b)
        }
    }
}
