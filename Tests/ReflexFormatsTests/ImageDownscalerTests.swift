import Testing
@testable import ReflexFormats

@Suite("Image downscaler")
struct ImageDownscalerTests {
    static func scaled(_ pixels: [UInt8], _ width: Int, _ height: Int, stride: Int? = nil,
                       to w: Int, _ h: Int) -> [UInt8] {
        pixels.withUnsafeBufferPointer {
            let image = RGBImage(pixels: $0.baseAddress!, width: width, height: height, stride: stride)
            return ImageDownscaler.downscale(image, width: w, height: h)
        }
    }

    static func letterboxed(_ pixels: [UInt8], _ width: Int, _ height: Int) -> [UInt8] {
        pixels.withUnsafeBufferPointer {
            ImageDownscaler.letterboxed(RGBImage(pixels: $0.baseAddress!, width: width, height: height),
                                        width: 160, height: 120)
        }
    }

    static func previewHeight(_ width: Int, _ height: Int) -> Int {
        [UInt8](repeating: 0, count: 3).withUnsafeBufferPointer {
            let image = RGBImage(pixels: $0.baseAddress!, width: width, height: height)
            return ImageDownscaler.height(of: image, scaledToWidth: 256)
        }
    }

    @Test func aFlatColourStaysFlat() {
        let flat = [UInt8](repeating: 0, count: 101 * 37 * 3).enumerated().map { [10, 200, 30][$0.offset % 3] }
        for (w, h) in [(16, 9), (101, 37), (1, 1), (250, 80)] {
            let out = Self.scaled(flat.map(UInt8.init), 101, 37, to: w, h)
            #expect(out.count == w * h * 3)
            #expect(out.enumerated().allSatisfy { $0.element == [10, 200, 30][$0.offset % 3] }, "\(w)×\(h)")
        }
    }

    @Test func eachOutputPixelIsTheMeanOfItsArea() {
        // 4×2 → 2×1: each output pixel is a 2×2 block's mean.
        let pixels: [UInt8] = [0, 0, 0, 10, 20, 30, 100, 100, 100, 200, 200, 200,
                               20, 40, 60, 30, 60, 90, 101, 101, 101, 201, 201, 201]
        #expect(Self.scaled(pixels, 4, 2, to: 2, 1) == [15, 30, 45, 151, 151, 151])
        // 3 → 2 columns: thirds of a pixel, (1·a + ½·b) / 1.5 and (½·b + 1·c) / 1.5.
        let row: [UInt8] = [0, 0, 0, 90, 90, 90, 180, 180, 180]
        #expect(Self.scaled(row, 3, 1, to: 2, 1) == [30, 30, 30, 150, 150, 150])
    }

    @Test func largerSizesRepeatPixels() {
        let pixels: [UInt8] = [0, 0, 0, 255, 255, 255]
        #expect(Self.scaled(pixels, 2, 1, to: 4, 2) == [0, 0, 0, 0, 0, 0, 255, 255, 255, 255, 255, 255,
                                                        0, 0, 0, 0, 0, 0, 255, 255, 255, 255, 255, 255])
    }

    @Test func paddingIsNeverRead() {
        // Two 1-pixel rows, each followed by padding of 255.
        let pixels: [UInt8] = [10, 20, 30, 255, 255, 255, 50, 60, 70, 255, 255, 255]
        #expect(Self.scaled(pixels, 1, 2, stride: 6, to: 1, 1) == [30, 40, 50])
    }

    @Test func letterboxKeepsTheAspectOnBlack() {
        let white = [UInt8](repeating: 255, count: 320 * 120 * 3)
        let boxed = Self.letterboxed(white, 320, 120)
        // 8:3 in 4:3: 160×60, rows 30..<90.
        func row(_ y: Int) -> ArraySlice<UInt8> { boxed[(y * 160 * 3)..<((y + 1) * 160 * 3)] }
        for y in [0, 29, 90, 119] { #expect(row(y).allSatisfy { $0 == 0 }, "row \(y)") }
        for y in [30, 60, 89] { #expect(row(y).allSatisfy { $0 == 255 }, "row \(y)") }
        // A line a pixel high still shows.
        let line = [UInt8](repeating: 255, count: 4000 * 1 * 3)
        #expect(Self.letterboxed(line, 4000, 1).contains(255))
    }

    @Test func previewHeightKeepsTheAspect() {
        #expect(Self.previewHeight(4056, 3040) == 192)
        #expect(Self.previewHeight(1920, 1080) == 144)
        #expect(Self.previewHeight(5000, 1) == 1)
    }
}
