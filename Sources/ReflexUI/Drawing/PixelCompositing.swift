import ReflexCore
import ReflexISP

/// The per-frame pixel work on the panel's XRGB8888 buffer, in plain Swift: layers blended
/// over the picture, the histogram, zebras and focus peaking. No allocation, no Cairo:
/// this runs every vblank, while Cairo runs only when something on screen changes.
public enum PixelCompositing {
    /// Blends `source` (premultiplied ARGB, `sourceStride` pixels a row) over `destination`
    /// at (`x`, `y`) with `opacity` 0…256, clipped to the destination. The destination is
    /// premultiplied ARGB too: an opaque picture stays opaque, and a transparent overlay plane
    /// takes the layer's own alpha.
    public static func blend(_ source: UnsafePointer<UInt32>, sourceStride: Int, width: Int, height: Int,
                             into destination: UnsafeMutablePointer<UInt32>, destinationStride: Int,
                             destinationWidth: Int, destinationHeight: Int, x: Int, y: Int, opacity: Int) {
        guard opacity > 0 else { return }
        let firstRow = max(0, -y), lastRow = min(height, destinationHeight - y)
        let firstColumn = max(0, -x), lastColumn = min(width, destinationWidth - x)
        guard firstRow < lastRow, firstColumn < lastColumn else { return }
        let op = UInt32(min(opacity, 256))
        let opacityLanes = SIMD4<UInt32>(repeating: op)
        for row in firstRow..<lastRow {
            let src = source + row * sourceStride
            let dst = destination + (y + row) * destinationStride + x
            // Four pixels at a time (the latch of each frame blends a third of the panel, a
            // millisecond before its vblank): a transparent four is skipped, an opaque four
            // copied, any other blended lane by lane with the same arithmetic as one pixel.
            var column = firstColumn
            while column + 4 <= lastColumn {
                var pixels = UnsafeRawPointer(src + column).loadUnaligned(as: SIMD4<UInt32>.self)
                if pixels == .zero {
                    column += 4
                    continue
                }
                if op < 256 { pixels = scale(pixels, opacityLanes) }
                let target = UnsafeMutableRawPointer(dst + column)
                if pixels &>> 24 == SIMD4(repeating: 255) {
                    target.storeBytes(of: pixels, as: SIMD4<UInt32>.self)
                } else {
                    target.storeBytes(of: over(pixels, target.loadUnaligned(as: SIMD4<UInt32>.self)), as: SIMD4<UInt32>.self)
                }
                column += 4
            }
            while column < lastColumn {
                var pixel = src[column]
                if pixel != 0 {
                    if op < 256 { pixel = scale(pixel, op) }
                    dst[column] = pixel >> 24 == 255 ? pixel : over(pixel, dst[column])
                }
                column += 1
            }
        }
    }

    /// `over` for four pixels, each lane as the one-pixel version.
    @inline(__always)
    static func over(_ pixel: SIMD4<UInt32>, _ under: SIMD4<UInt32>) -> SIMD4<UInt32> {
        let low = SIMD4<UInt32>(repeating: 0x00FF_00FF), round = SIMD4<UInt32>(repeating: 0x0080_0080)
        let inverse = SIMD4<UInt32>(repeating: 255) &- (pixel &>> 24)
        var redBlue = (under & low) &* inverse &+ round
        redBlue = ((redBlue &+ ((redBlue &>> 8) & low)) &>> 8) & low
        var alphaGreen = ((under &>> 8) & low) &* inverse &+ round
        alphaGreen = (alphaGreen &+ ((alphaGreen &>> 8) & low)) & SIMD4(repeating: 0xFF00_FF00)
        return pixel &+ redBlue &+ alphaGreen
    }

    /// `scale` for four pixels.
    @inline(__always)
    static func scale(_ pixel: SIMD4<UInt32>, _ op: SIMD4<UInt32>) -> SIMD4<UInt32> {
        let low = SIMD4<UInt32>(repeating: 0x00FF_00FF)
        let redBlue = (((pixel & low) &* op) &>> 8) & low
        let alphaGreen = (((pixel &>> 8) & low) &* op) & SIMD4(repeating: 0xFF00_FF00)
        return redBlue | alphaGreen
    }

    /// Premultiplied `pixel` over `under`: under × (1 − α) + pixel, two channels at a time in
    /// one 32-bit word (red with blue, alpha with green), each divided by 255 exactly.
    @inline(__always)
    static func over(_ pixel: UInt32, _ under: UInt32) -> UInt32 {
        let inverse = 255 - (pixel >> 24)
        var redBlue = (under & 0x00FF_00FF) &* inverse &+ 0x0080_0080
        redBlue = ((redBlue &+ ((redBlue >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
        var alphaGreen = ((under >> 8) & 0x00FF_00FF) &* inverse &+ 0x0080_0080
        alphaGreen = (alphaGreen &+ ((alphaGreen >> 8) & 0x00FF_00FF)) & 0xFF00_FF00
        return pixel &+ redBlue &+ alphaGreen
    }

    /// A premultiplied pixel times `op`/256.
    @inline(__always)
    static func scale(_ pixel: UInt32, _ op: UInt32) -> UInt32 {
        let redBlue = (((pixel & 0x00FF_00FF) &* op) >> 8) & 0x00FF_00FF
        let alphaGreen = (((pixel >> 8) & 0x00FF_00FF) &* op) & 0xFF00_FF00
        return redBlue | alphaGreen
    }

    /// A premultiplied ARGB pixel from a colour.
    public static func premultiplied(_ c: Colour) -> UInt32 {
        let a = max(0, min(1, c.alpha))
        func channel(_ v: Double) -> UInt32 { UInt32((max(0, min(1, v)) * a * 255).rounded()) }
        return UInt32((a * 255).rounded()) << 24 | channel(c.red) << 16 | channel(c.green) << 8 | channel(c.blue)
    }

    /// Fills a rectangle with a (translucent) colour, clipped to the destination.
    public static func fill(_ rect: PixelRect, _ colour: Colour, into destination: UnsafeMutablePointer<UInt32>,
                            stride: Int, width: Int, height: Int) {
        let pixel = premultiplied(colour)
        let x = max(0, rect.x), y = max(0, rect.y)
        let w = min(width, rect.x + rect.width) - x, h = min(height, rect.y + rect.height) - y
        guard w > 0, h > 0 else { return }
        for row in y..<(y + h) {
            let line = destination + row * stride + x
            for column in 0..<w { line[column] = over(pixel, line[column]) }
        }
    }

    /// The luma histogram in its box: bars scaled to the tallest bin, on the HUD surface.
    public static func histogram(_ bins: UnsafeBufferPointer<UInt32>, in rect: PixelRect,
                                 into destination: UnsafeMutablePointer<UInt32>, stride: Int, width: Int, height: Int,
                                 padding: Int) {
        let surface = premultiplied(Palette.surface), bar = premultiplied(Palette.histogram)
        let x0 = max(0, rect.x), y0 = max(0, rect.y)
        let x1 = min(width, rect.x + rect.width), y1 = min(height, rect.y + rect.height)
        guard x0 < x1, y0 < y1 else { return }
        var tallest: UInt32 = 1
        for bin in bins where bin > tallest { tallest = bin }
        let plotWidth = rect.width - 2 * padding, plotHeight = rect.height - 2 * padding
        let bottom = rect.y + rect.height - padding
        // Row by row (the panel's order, not a column at a time down it): each pixel is the
        // surface or, inside the plot under its column's bar, the bar, over the picture.
        // The bars' tops are worked out once, on the stack.
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: max(plotWidth, 1)) { tops in
            for column in 0..<max(plotWidth, 0) {
                let bin = column * bins.count / plotWidth
                let barHeight = bins.isEmpty || plotHeight <= 0 ? 0
                    : Int((UInt64(bins[bin]) * UInt64(plotHeight) + UInt64(tallest) / 2) / UInt64(tallest))
                tops[column] = Int32(bottom - barHeight)
            }
            let plotLeft = rect.x + padding
            for y in y0..<y1 {
                let line = destination + y * stride
                let inPlotRows = y < bottom
                for x in x0..<x1 {
                    let column = x - plotLeft
                    let onBar = inPlotRows && column >= 0 && column < plotWidth && y >= Int(tops[column])
                    let under = over(surface, line[x])
                    line[x] = onBar ? over(bar, under) : under
                }
            }
        }
    }

    /// Zebra stripes over the picture where it is clipped (every channel ≥ `threshold`):
    /// diagonal dark stripes, so overexposure shows even in a white sky.
    public static func zebras(in rect: PixelRect, _ pixels: UnsafeMutablePointer<UInt32>, stride: Int,
                              threshold: UInt32 = 250, phase: Int = 0) {
        for y in rect.y..<(rect.y + rect.height) {
            let row = pixels + y * stride
            for x in rect.x..<(rect.x + rect.width) {
                let p = row[x]
                let low = min((p >> 16) & 0xFF, (p >> 8) & 0xFF, p & 0xFF)
                if low >= threshold && ((x + y + phase) / 8) & 1 == 0 { row[x] = 0xFF20_2020 }
            }
        }
    }

    /// Focus peaking: pixels where the green channel's local gradient exceeds `threshold`
    /// are painted in the peaking colour, so what is in focus lights up while the focus dial moves.
    public static func peaking(in rect: PixelRect, _ pixels: UnsafeMutablePointer<UInt32>, stride: Int,
                               threshold: Int32 = 48) {
        let marker: UInt32 = 0xFF00_0000 | (premultiplied(Palette.peaking) & 0x00FF_FFFF)
        guard rect.width > 1, rect.height > 1 else { return }
        // Raster order reading right and down only: a pixel marked is never read again.
        for y in rect.y..<(rect.y + rect.height - 1) {
            let row = pixels + y * stride, below = row + stride
            for x in rect.x..<(rect.x + rect.width - 1) {
                let g = Int32((row[x] >> 8) & 0xFF)
                let right = Int32((row[x + 1] >> 8) & 0xFF), down = Int32((below[x] >> 8) & 0xFF)
                if abs(right - g) + abs(down - g) > threshold { row[x] = marker }
            }
        }
    }

    /// A white border `width` pixels wide just inside `rect`, blended at `opacity` (0…256):
    /// the mark that a photo was taken.
    public static func border(in rect: PixelRect, _ pixels: UnsafeMutablePointer<UInt32>, stride: Int, width: Int,
                              opacity: Int, colour: UInt32 = 0xFFFFFF) {
        let a = UInt32(min(max(opacity, 0), 256)), keep = 256 - a
        let red = (colour >> 16) & 0xFF, green = (colour >> 8) & 0xFF, blue = colour & 0xFF
        let band = min(width, rect.width / 2, rect.height / 2)
        for y in rect.y..<(rect.y + rect.height) {
            let row = pixels + y * stride
            let edgeRow = y < rect.y + band || y >= rect.y + rect.height - band
            var x = rect.x
            while x < rect.x + rect.width {
                let p = row[x]
                let r = ((p >> 16) & 0xFF) * keep + red * a, g = ((p >> 8) & 0xFF) * keep + green * a, b = (p & 0xFF) * keep + blue * a
                row[x] = 0xFF00_0000 | (r >> 8) << 16 | (g >> 8) << 8 | (b >> 8)
                // Inside the band's rows every pixel; elsewhere only the left and right bands.
                x += (!edgeRow && x == rect.x + band - 1) ? rect.width - 2 * band + 1 : 1
            }
        }
    }

    /// Rule-of-thirds lines across `rect`: two each way, white at 40%, a couple of pixels wide.
    public static func thirds(in rect: PixelRect, _ pixels: UnsafeMutablePointer<UInt32>, stride: Int) {
        let width = max(1, min(rect.width, rect.height) / 400)
        for third in 1...2 {
            let x = rect.x + rect.width * third / 3 - width / 2, y = rect.y + rect.height * third / 3 - width / 2
            lighten(PixelRect(x: x, y: rect.y, width: width, height: rect.height), pixels, stride: stride)
            lighten(PixelRect(x: rect.x, y: y, width: rect.width, height: width), pixels, stride: stride)
        }
    }

    /// Blends white at 40% over `rect`.
    private static func lighten(_ rect: PixelRect, _ pixels: UnsafeMutablePointer<UInt32>, stride: Int) {
        for y in rect.y..<(rect.y + rect.height) {
            let row = pixels + y * stride
            for x in rect.x..<(rect.x + rect.width) {
                let p = row[x]
                let r = ((p >> 16) & 0xFF) * 154 + 255 * 102, g = ((p >> 8) & 0xFF) * 154 + 255 * 102, b = (p & 0xFF) * 154 + 255 * 102
                row[x] = 0xFF00_0000 | (r >> 8) << 16 | (g >> 8) << 8 | (b >> 8)
            }
        }
    }
}
