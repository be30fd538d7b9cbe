import ReflexCore
import CAllocationCounter
import Testing
@testable import ReflexISP

/// A Bayer frame made in the test: every red sample `red`, greens `green`, blues `blue`.
func flatFrame(width: Int, height: Int, format: RawFormat, red: UInt16, green: UInt16, blue: UInt16) -> [UInt8] {
    precondition(format.packing == .unpacked16, "flat frames are 16-bit")
    var bytes = [UInt8](repeating: 0, count: width * height * 2)
    let (rx, ry) = format.cfa.redPosition
    for y in 0..<height {
        for x in 0..<width {
            let value: UInt16 = (x % 2 == rx && y % 2 == ry) ? red : (x % 2 != rx && y % 2 != ry) ? blue : green
            bytes[(y * width + x) * 2] = UInt8(value & 0xFF)
            bytes[(y * width + x) * 2 + 1] = UInt8(value >> 8)
        }
    }
    return bytes
}

/// The reference: one tile decoded in double precision, the way the preview should.
func referencePixel(red: Double, green: Double, blue: Double, _ p: ISPParameters) -> (Int, Int, Int) {
    let range = Double(p.whiteLevel - p.blackLevel)
    func linear(_ v: Double, _ gain: Double) -> Double {
        min(max((v - Double(p.blackLevel)) / range * gain * p.digitalGain, 0), 1)
    }
    let rgb = p.colorMatrix.apply(SIMD3(linear(red, p.whiteBalance.x), linear(green, p.whiteBalance.y), linear(blue, p.whiteBalance.z)))
    func encode(_ v: Double) -> Int { Int((PreviewISP.sRGBEncode(min(max(v, 0), 1)) * 255).rounded()) }
    return (encode(rgb.x), encode(rgb.y), encode(rgb.z))
}

func channels(_ pixel: UInt32) -> (Int, Int, Int) {
    (Int(pixel >> 16 & 0xFF), Int(pixel >> 8 & 0xFF), Int(pixel & 0xFF))
}

/// Renders a 16-bit test frame of `width`×`height` into a new output of `outputWidth`×
/// `outputHeight` (filled with `background` first), the picture in `destination`.
func render(_ isp: PreviewISP, _ frame: [UInt8], width: Int, height: Int, format: RawFormat,
            outputWidth: Int, outputHeight: Int, destination: PixelRect, background: UInt32 = 0) -> [UInt32] {
    var output = [UInt32](repeating: background, count: outputWidth * outputHeight)
    frame.withUnsafeBytes { raw in
        output.withUnsafeMutableBufferPointer { out in
            isp.renderBayer(raw.baseAddress!, layout: RawLayout(width: width, height: height, format: format),
                            into: out.baseAddress!, outputWidth: outputWidth, outputHeight: outputHeight,
                            outputStride: outputWidth, destination: destination)
        }
    }
    return output
}

@Suite("The preview ISP")
struct PreviewISPTests {
    let parameters = ISPParameters(blackLevel: 64, whiteLevel: 1023, whiteBalance: SIMD3(1.8, 1, 1.5), digitalGain: 1.2,
                                   colorMatrix: Matrix3([1.6, -0.4, -0.2, -0.3, 1.5, -0.2, 0.0, -0.5, 1.5]))

    @Test(arguments: CFAPattern.allCases)
    func aFlatFieldComesOutAsTheReferenceColourInEveryCFAOrder(cfa: CFAPattern) {
        let format = RawFormat(cfa: cfa, bitsPerSample: 10, packing: .unpacked16)
        let (width, height) = (64, 48)
        let frame = flatFrame(width: width, height: height, format: format, red: 400, green: 300, blue: 200)
        let isp = PreviewISP(maximumSourceWidth: width, maximumSourceHeight: height, maximumOutputWidth: 80)
        isp.setParameters(parameters, format: format)
        let destination = PixelRect(x: 0, y: 0, width: 80, height: 60).fitting(sourceWidth: width, sourceHeight: height)
        let output = render(isp, frame, width: width, height: height, format: format, outputWidth: 80, outputHeight: 60,
                            destination: destination)
        let expected = referencePixel(red: 400, green: 300, blue: 200, parameters)
        let got = channels(output[30 * 80 + 40])
        #expect(abs(got.0 - expected.0) <= 1 && abs(got.1 - expected.1) <= 1 && abs(got.2 - expected.2) <= 1,
                "\(cfa): got \(got), expected \(expected)")
        #expect(got.0 > got.2, "red was brighter than blue in the scene")
    }

    /// The colour matrix's results index the gamma table without a clamp, so a wild matrix
    /// must still land inside it: shrunk until it does, or the identity if it is not numbers.
    @Test(arguments: [
        [40.0, -30, 0, 0, 1, 0, 0, 0, 1],      // far beyond any real sensor's matrix
        [1, 0, 0, -50, 0, 0, 0, 0, 1],         // a row all negative
        [40.0, 0, 0, 0, 1, 0, 0, 0, 1],        // a row all positive (the table's top)
        [Double.nan, 0, 0, 0, 1, 0, 0, 0, 1],  // not a number
        [Double.infinity, 0, 0, 0, 1, 0, 0, 0, 1],
    ])
    func aWildColourMatrixStaysInsideTheGammaTable(matrix: [Double]) {
        let m = PreviewColourMatrix.bounded(matrix)
        let rows = [(m.0, m.1, m.2), (m.3, m.4, m.5), (m.6, m.7, m.8)]
        let top = Float(PreviewISP.linearMaximum)
        for (a, b, c) in rows {
            #expect(a.isFinite && b.isFinite && c.isFinite)
            let highest = (max(a, 0) + max(b, 0) + max(c, 0)) * top
            let lowest = (min(a, 0) + min(b, 0) + min(c, 0)) * top
            #expect(highest < top + Float(PreviewISP.gammaAbove) && lowest > -Float(PreviewISP.gammaBelow),
                    "row \((a, b, c)) reaches \(lowest)…\(highest)")
        }
        // And a frame through it comes out as the reference says: the clamp at 0 and 255 is the
        // gamma table's, and no channel wraps around. 22 pixels: 11 tiles, not a whole SIMD step.
        let format = RawFormat(cfa: .rggb, bitsPerSample: 10, packing: .unpacked16)
        let frame = flatFrame(width: 22, height: 16, format: format, red: 1023, green: 900, blue: 64)
        let isp = PreviewISP(maximumSourceWidth: 22, maximumSourceHeight: 16, maximumOutputWidth: 11)
        var wild = parameters
        wild.colorMatrix = Matrix3(matrix)
        isp.setParameters(wild, format: format)
        let output = render(isp, frame, width: 22, height: 16, format: format, outputWidth: 11, outputHeight: 8,
                            destination: PixelRect(x: 0, y: 0, width: 11, height: 8))
        var bounded = parameters
        bounded.colorMatrix = Matrix3([m.0, m.1, m.2, m.3, m.4, m.5, m.6, m.7, m.8].map(Double.init))
        let expected = referencePixel(red: 1023, green: 900, blue: 64, bounded)
        for pixel in output {
            let got = channels(pixel)
            #expect(abs(got.0 - expected.0) <= 1 && abs(got.1 - expected.1) <= 1 && abs(got.2 - expected.2) <= 1,
                    "got \(got), expected \(expected)")
        }
    }

    /// A tile's three shares are added as one 64-bit word of three 16-bit lanes: every share
    /// lane and every sum of three must stay within 0…65535 (a lane past either end would carry
    /// into, or borrow from, its neighbour), for any matrix once bounded, at every corner of
    /// the linear cube (each lane is linear in each share, so its extremes are at corners).
    @Test(arguments: [
        [40.0, -30, 0, 0, 1, 0, 0, 0, 1], [1, 0, 0, -50, 0, 0, 0, 0, 1], [40.0, 0, 0, 0, 1, 0, 0, 0, 1],
        [-1, -1, -1, -1, -1, -1, -1, -1, -1], [1.9, -0.7, -0.2, -0.3, 1.6, -0.3, 0.05, -0.75, 1.7],
    ])
    func aTilesSharesNeverCarryBetweenLanes(matrix: [Double]) {
        let m = PreviewColourMatrix.bounded(matrix)
        let columns = [(m.0, m.3, m.6), (m.1, m.4, m.7), (m.2, m.5, m.8)]
        let top = Float(PreviewISP.linearMaximum)
        func lanes(_ word: UInt64) -> [UInt64] { [word & 0xFFFF, word >> 16 & 0xFFFF, word >> 32 & 0xFFFF, word >> 48] }
        for corner in 0..<8 {
            var sum: [UInt64] = [0, 0, 0, 0]
            for channel in 0..<3 {
                let linear = corner >> channel & 1 == 1 ? top : 0
                let (c0, c1, c2) = columns[channel]
                let share = lanes(PreviewISP.shares(linear, c0, c1, c2))
                #expect(share[2] == 0, "bits 32…47 stay empty")
                // Computed wide, here, so a lane past 16 bits shows rather than carries.
                let unit = Double(1 << PreviewISP.mixFractionBits)
                let wide = [(Double(c0) * Double(linear) + Double(PreviewISP.gammaBelow)) * unit,
                            (Double(c1) * Double(linear) + Double(PreviewISP.gammaBelow)) * unit,
                            (Double(c2) * Double(linear) + Double(PreviewISP.gammaBelow)) * unit]
                #expect(wide.allSatisfy { $0 >= 0 && $0 < 65536 }, "matrix \(matrix): a share of \(wide)")
                sum[0] += share[0]; sum[1] += share[1]; sum[3] += share[3]
            }
            #expect(sum.allSatisfy { $0 < UInt64(PreviewISP.gammaCount) }, "matrix \(matrix), corner \(corner): \(sum)")
        }
        #expect(PreviewISP.gammaCount == 1 << 16, "a lane indexes the gamma table without a mask")
    }

    /// A real matrix is used as it is.
    @Test func anOrdinaryColourMatrixIsNotChanged() {
        let m = PreviewColourMatrix.bounded(parameters.colorMatrix.m)
        #expect([m.0, m.1, m.2, m.3, m.4, m.5, m.6, m.7, m.8] == parameters.colorMatrix.m.map(Float.init))
    }

    @Test func theLetterboxIsBlackAndThePictureFillsItsRectangle() {
        let format = RawFormat(cfa: .rggb, bitsPerSample: 10, packing: .unpacked16)
        let frame = flatFrame(width: 32, height: 18, format: format, red: 900, green: 900, blue: 900)
        let isp = PreviewISP(maximumSourceWidth: 32, maximumSourceHeight: 18, maximumOutputWidth: 64)
        isp.setParameters(ISPParameters(blackLevel: 0, whiteLevel: 1023), format: format)
        let destination = PixelRect(x: 0, y: 0, width: 64, height: 48).fitting(sourceWidth: 32, sourceHeight: 18)
        #expect(destination == PixelRect(x: 0, y: 6, width: 64, height: 36))
        let output = render(isp, frame, width: 32, height: 18, format: format, outputWidth: 64, outputHeight: 48,
                            destination: destination, background: 0x1234_5678)
        for y in 0..<48 {
            for x in 0..<64 {
                let inside = y >= 6 && y < 42
                let (r, g, b) = channels(output[y * 64 + x])
                if inside { #expect(r > 200 && r == g && g == b, "(\(x),\(y)) inside") }
                else { #expect(r == 0 && g == 0 && b == 0, "(\(x),\(y)) in the letterbox") }
            }
        }
    }

    /// The 4/3 upscale (a 1080p sensor on a 720-line viewfinder) has a vectorised path of its
    /// own. Its weights are all eighths, which the scaler blends by halving, with averages
    /// rounded down between rows and up between columns: it must give exactly those pixels,
    /// computed here from the half-size image, on a noisy picture where any wrong tap shows,
    /// and each channel within 1.125 levels of exact bilinear interpolation, unbiased.
    @Test(arguments: [0, 5])
    func theFourThirdsUpscaleIsBilinearByHalving(offset: Int) {
        let format = RawFormat(cfa: .rggb, bitsPerSample: 10, packing: .unpacked16)
        let (rawWidth, rawHeight) = (48, 12)  // half size 24x6 → 32x8
        var state: UInt32 = 12345
        var frame = [UInt8](repeating: 0, count: rawWidth * rawHeight * 2)
        for i in 0..<(rawWidth * rawHeight) {
            state = state &* 1_103_515_245 &+ 12345
            let value = UInt16((state >> 8) % 1024)
            frame[i * 2] = UInt8(value & 0xFF)
            frame[i * 2 + 1] = UInt8(value >> 8)
        }
        let isp = PreviewISP(maximumSourceWidth: rawWidth, maximumSourceHeight: rawHeight, maximumOutputWidth: 40)
        isp.setParameters(ISPParameters(blackLevel: 0, whiteLevel: 1023), format: format)
        let layout = RawLayout(width: rawWidth, height: rawHeight, format: format)
        // The picture `offset` pixels in from the left of a wider output, as in a pillarbox.
        func render(_ w: Int, _ h: Int, x: Int = 0) -> [UInt32] {
            let outputWidth = w + x
            var output = [UInt32](repeating: 0, count: outputWidth * h)
            frame.withUnsafeBytes { raw in
                output.withUnsafeMutableBufferPointer { out in
                    isp.renderBayer(raw.baseAddress!, layout: layout, into: out.baseAddress!, outputWidth: outputWidth,
                                    outputHeight: h, outputStride: outputWidth, destination: PixelRect(x: x, y: 0, width: w, height: h))
                }
            }
            return (0..<h).flatMap { row in output[(row * outputWidth + x)..<(row * outputWidth + x + w)] }
        }
        let half = render(24, 6)  // 1:1: the half-size image itself
        let scaled = render(32, 8, x: offset)
        func taps(_ x: Int, _ from: Int, _ to: Int) -> (Int, UInt32) {
            let position = max((Double(x) + 0.5) * Double(from) / Double(to) - 0.5, 0)
            let index = min(Int(position), from - 2)
            return (index, UInt32(min((position - Double(index)) * 256, 256)))
        }
        // b's share in eighths by halving: the point lies in one half of a..b; recurse into it.
        func blend(_ a: UInt32, _ b: UInt32, _ weight: UInt32, up: Bool) -> UInt32 {
            if weight == 0 { return a }
            if weight == 256 { return b }
            let middle = (a + b + (up ? 1 : 0)) / 2
            if weight == 128 { return middle }
            return weight < 128 ? blend(a, middle, weight * 2, up: up) : blend(middle, b, weight * 2 - 256, up: up)
        }
        var mismatches = 0, farFromBilinear = 0
        var deviation = 0.0
        for y in 0..<8 {
            let (row, fy) = taps(y, 6, 8)
            #expect(fy % 32 == 0)
            for x in 0..<32 {
                let (column, fx) = taps(x, 24, 32)
                var expected: UInt32 = 0xFF00_0000
                for shift: UInt32 in [0, 8, 16] {
                    func c(_ px: Int, _ py: Int) -> UInt32 { (half[py * 24 + px] >> shift) & 0xFF }
                    let left = blend(c(column, row), c(column, row + 1), fy, up: false)
                    let right = blend(c(column + 1, row), c(column + 1, row + 1), fy, up: false)
                    expected |= blend(left, right, fx, up: true) << shift
                    // Exact bilinear, in real numbers.
                    func e(_ px: Int, _ py: Int) -> Double { Double(c(px, py)) }
                    let (wy, wx) = (Double(fy) / 256, Double(fx) / 256)
                    let exact = (e(column, row) * (1 - wy) + e(column, row + 1) * wy) * (1 - wx)
                        + (e(column + 1, row) * (1 - wy) + e(column + 1, row + 1) * wy) * wx
                    let difference = Double((scaled[y * 32 + x] >> shift) & 0xFF) - exact
                    deviation += difference
                    if abs(difference) > 1.125 { farFromBilinear += 1 }
                }
                if scaled[y * 32 + x] != expected { mismatches += 1 }
            }
        }
        #expect(farFromBilinear == 0, "\(farFromBilinear) channels more than 1.125 levels from exact bilinear")
        #expect(abs(deviation / 768) < 0.25, "on average \(deviation / 768) levels from exact bilinear")
        #expect(mismatches == 0, "\(mismatches) of 256 pixels differ from bilinear")
    }

    /// Digital zoom: a centred crop fills the viewfinder with the middle of the picture only.
    @Test func aCentredCropShowsOnlyTheMiddle() {
        let format = RawFormat(cfa: .rggb, bitsPerSample: 10, packing: .unpacked16)
        let (width, height) = (64, 32)
        var frame = flatFrame(width: width, height: height, format: format, red: 900, green: 40, blue: 40)  // red edges
        let middle = flatFrame(width: width, height: height, format: format, red: 40, green: 40, blue: 900)  // blue centre
        for y in 0..<height { for x in 16..<48 { for k in 0..<2 { frame[(y * width + x) * 2 + k] = middle[(y * width + x) * 2 + k] } } }
        let isp = PreviewISP(maximumSourceWidth: width, maximumSourceHeight: height, maximumOutputWidth: 64)
        isp.setParameters(ISPParameters(blackLevel: 0, whiteLevel: 1023), format: format)
        var output = [UInt32](repeating: 0, count: 64 * 32)
        let crop = PixelRect.centred(in: width, height, scale: 0.5)
        #expect(crop == PixelRect(x: 16, y: 8, width: 32, height: 16))
        frame.withUnsafeBytes { raw in
            output.withUnsafeMutableBufferPointer { out in
                isp.renderBayer(raw.baseAddress!, layout: RawLayout(width: width, height: height, format: format), crop: crop,
                                into: out.baseAddress!, outputWidth: 64, outputHeight: 32, outputStride: 64,
                                destination: PixelRect(x: 0, y: 0, width: 64, height: 32))
            }
        }
        let blues = output.filter { let (r, _, b) = channels($0); return b > r + 100 }.count
        #expect(blues == output.count, "every pixel from the blue middle: \(blues) of \(output.count)")
    }

    /// A frame four times the viewfinder's size is read one tile of each 4×4 block: the same
    /// colours, the picture where it was (a dark left half stays left), and the step is taken
    /// only where the skipped picture still has 90% of the viewfinder's resolution.
    @Test func aFrameFourTimesTheViewfinderIsReadSkippingAndLooksTheSame() {
        #expect(PreviewISP.tileStep(area: PixelRect(x: 0, y: 0, width: 4056, height: 3040),
                                    destination: PixelRect(x: 106, y: 0, width: 1067, height: 800)) == 2)
        #expect(PreviewISP.tileStep(area: PixelRect(x: 0, y: 0, width: 1920, height: 1080),
                                    destination: PixelRect(x: 0, y: 40, width: 1280, height: 720)) == 1)
        #expect(PreviewISP.tileStep(area: PixelRect(x: 0, y: 0, width: 3600, height: 2400),
                                    destination: PixelRect(x: 0, y: 0, width: 1067, height: 800)) == 1,
                "900 of 1067 columns is less than 90%")
        let format = RawFormat(cfa: .grbg, bitsPerSample: 10, packing: .unpacked16)
        let (width, height) = (256, 128)
        var frame = flatFrame(width: width, height: height, format: format, red: 400, green: 300, blue: 200)
        let dark = flatFrame(width: width, height: height, format: format, red: 70, green: 70, blue: 70)
        for y in 0..<height { for x in 0..<(width / 2) { for k in 0..<2 { frame[(y * width + x) * 2 + k] = dark[(y * width + x) * 2 + k] } } }
        let isp = PreviewISP(maximumSourceWidth: width, maximumSourceHeight: height, maximumOutputWidth: 64)
        isp.setParameters(parameters, format: format)
        let output = render(isp, frame, width: width, height: height, format: format, outputWidth: 64, outputHeight: 32,
                            destination: PixelRect(x: 0, y: 0, width: 64, height: 32))
        let bright = referencePixel(red: 400, green: 300, blue: 200, parameters)
        let darkColour = referencePixel(red: 70, green: 70, blue: 70, parameters)
        for (x, expected) in [(5, darkColour), (58, bright)] {
            let got = channels(output[16 * 64 + x])
            #expect(abs(got.0 - expected.0) <= 1 && abs(got.1 - expected.1) <= 1 && abs(got.2 - expected.2) <= 1,
                    "column \(x): got \(got), expected \(expected)")
        }
    }

    @Test func scalingBlendsAcrossAnEdgeWithoutOvershoot() {
        // Left half dark, right half bright: across the edge the output rises monotonically.
        let format = RawFormat(cfa: .rggb, bitsPerSample: 10, packing: .unpacked16)
        var frame = flatFrame(width: 16, height: 4, format: format, red: 100, green: 100, blue: 100)
        let bright = flatFrame(width: 16, height: 4, format: format, red: 800, green: 800, blue: 800)
        for y in 0..<4 { for x in 8..<16 { for k in 0..<2 { frame[(y * 16 + x) * 2 + k] = bright[(y * 16 + x) * 2 + k] } } }
        let isp = PreviewISP(maximumSourceWidth: 16, maximumSourceHeight: 4, maximumOutputWidth: 32)
        isp.setParameters(ISPParameters(blackLevel: 0, whiteLevel: 1023), format: format)
        let output = render(isp, frame, width: 16, height: 4, format: format, outputWidth: 32, outputHeight: 4,
                            destination: PixelRect(x: 0, y: 0, width: 32, height: 4))
        let row = (0..<32).map { channels(output[32 + $0]).1 }
        #expect(row.first == referencePixel(red: 100, green: 100, blue: 100, ISPParameters(blackLevel: 0, whiteLevel: 1023)).1)
        #expect(row.last == referencePixel(red: 800, green: 800, blue: 800, ISPParameters(blackLevel: 0, whiteLevel: 1023)).1)
        #expect(zip(row, row.dropFirst()).allSatisfy { $0 <= $1 }, "\(row)")
        #expect(Set(row).count > 2, "the edge is blended, not a jump: \(row)")
    }

    @Test func renderingStatisticsAndNewParametersAllocateNothingPerFrame() {
        let format = RawFormat(cfa: .bggr, bitsPerSample: 10, packing: .csi2Packed10)
        let layout = RawLayout(width: 640, height: 480, format: format)
        let frame = [UInt8](repeating: 0x55, count: layout.byteCount)
        let isp = PreviewISP(maximumSourceWidth: 640, maximumSourceHeight: 480, maximumOutputWidth: 800)
        isp.setParameters(parameters, format: format)
        var output = [UInt32](repeating: 0, count: 800 * 480)
        var statistics = FrameStatistics()
        let destination = PixelRect(x: 0, y: 0, width: 800, height: 480).fitting(sourceWidth: 640, sourceHeight: 480)
        frame.withUnsafeBytes { raw in
            output.withUnsafeMutableBufferPointer { out in
                var frameNumber = 0.0
                func oneFrame() {
                    // White balance moves every frame, as Auto white balance makes it.
                    frameNumber += 1
                    var moving = parameters
                    moving.whiteBalance.x = 1.5 + frameNumber / 100
                    isp.setParameters(moving, format: format)
                    isp.renderBayer(raw.baseAddress!, layout: layout, into: out.baseAddress!, outputWidth: 800,
                                    outputHeight: 480, outputStride: 800, destination: destination)
                    isp.collectStatistics(raw.baseAddress!, layout: layout, into: &statistics)
                }
                oneFrame()
                let before = reflex_thread_allocations()
                for _ in 0..<20 { oneFrame() }
                #expect(reflex_thread_allocations() - before == 0)
            }
        }
        // And the counter does count: an array is an allocation. (Not under a sanitizer, whose
        // runtime owns malloc and where nothing is counted: image-build/check --sanitize.)
        guard reflex_allocations_are_counted() else { return }
        let before = reflex_thread_allocations()
        let array = [Int](repeating: 1, count: 1000 + statistics.samples)
        #expect(reflex_thread_allocations() - before >= 1 && array.count > 0)
    }
}
