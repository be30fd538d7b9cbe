import ReflexCore
import CAllocationCounter
import CTurboJPEG
import ReflexHardware
import ReflexISP
import Testing

@Suite("Motion-JPEG cameras")
struct JPEGPreviewTests {
    /// A 64x32 picture in four coloured quadrants, as a webcam would send it.
    static func quadrantsJPEG() -> [UInt8] {
        let (width, height) = (64, 32)
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        let colours: [(UInt8, UInt8, UInt8)] = [(220, 40, 40), (40, 200, 60), (30, 60, 210), (230, 220, 40)]
        for y in 0..<height {
            for x in 0..<width {
                let c = colours[(y < height / 2 ? 0 : 2) + (x < width / 2 ? 0 : 1)]
                let i = (y * width + x) * 3
                (rgb[i], rgb[i + 1], rgb[i + 2]) = c
            }
        }
        let compressor = tjInitCompress()!
        defer { tjDestroy(compressor) }
        var buffer: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = tjCompress2(compressor, rgb, Int32(width), 0, Int32(height), Int32(TJPF_RGB.rawValue),
                                 &buffer, &size, Int32(TJSAMP_420.rawValue), 95, 0)
        precondition(status == 0, "the test's encoder works")
        defer { tjFree(buffer) }
        return Array(UnsafeBufferPointer(start: buffer, count: Int(size)))
    }

    /// A `width` × `height` webcam frame (4:2:2, as UVC cameras send): smooth gradients with
    /// a fine pattern; baseline or progressive.
    static func webcamJPEG(width: Int, height: Int, progressive: Bool = false) -> [UInt8] {
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                rgb[i] = UInt8(x * 255 / width)
                rgb[i + 1] = UInt8(y * 255 / height)
                rgb[i + 2] = (x / 8 + y / 8) % 2 == 0 ? 200 : 60
            }
        }
        let compressor = tjInitCompress()!
        defer { tjDestroy(compressor) }
        var buffer: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = tjCompress2(compressor, rgb, Int32(width), 0, Int32(height), Int32(TJPF_RGB.rawValue),
                                 &buffer, &size, Int32(TJSAMP_422.rawValue), 85, progressive ? TJFLAG_PROGRESSIVE : 0)
        precondition(status == 0, "the test's encoder works")
        defer { tjFree(buffer) }
        return Array(UnsafeBufferPointer(start: buffer, count: Int(size)))
    }

    /// Decodes frames of a `width` × `height` stream with `decoder` into pixels of its own,
    /// allocating nothing itself (for the tests that count allocations); `picture` is the last
    /// frame's half-size pixels.
    final class Stream {
        let decoder: JPEGPreviewDecoder
        let width: Int, height: Int
        let pixels: UnsafeMutableRawBufferPointer

        init(_ decoder: JPEGPreviewDecoder, width: Int, height: Int) {
            self.decoder = decoder
            (self.width, self.height) = (width, height)
            let half = JPEGPreviewDecoder.halfSize(width: width, height: height)
            pixels = .allocate(byteCount: half.width * half.height * 4, alignment: 64)
            pixels.initializeMemory(as: UInt8.self, repeating: 0)
        }

        deinit { pixels.deallocate() }

        func decode(_ jpeg: [UInt8]) -> Result<Void, JPEGPreviewDecoder.DecodeError> {
            jpeg.withUnsafeBytes { decoder.decodeHalfSize($0, width: width, height: height, into: pixels.baseAddress!) }
        }

        var picture: [UInt32] { Array(pixels.bindMemory(to: UInt32.self)) }
    }

    /// Decodes `jpeg` as a `width` × `height` stream's frame; the half-size pixels and the outcome.
    static func decode(_ jpeg: [UInt8], width: Int, height: Int) throws
        -> (pixels: [UInt32], result: Result<Void, JPEGPreviewDecoder.DecodeError>) {
        let stream = Stream(try #require(JPEGPreviewDecoder()), width: width, height: height)
        let result = stream.decode(jpeg)
        return (stream.picture, result)
    }

    @Test func aFrameIsDecodedAtHalfSizeIntoThePreviewsPixels() throws {
        let jpeg = Self.quadrantsJPEG()
        let (half, result) = try Self.decode(jpeg, width: 64, height: 32)
        #expect((try? result.get()) != nil)
        func rgb(_ x: Int, _ y: Int) -> (Int, Int, Int) {
            let p = half[y * 32 + x]
            return (Int(p >> 16 & 0xFF), Int(p >> 8 & 0xFF), Int(p & 0xFF))
        }
        // Quadrant centres, within JPEG's loss.
        func near(_ a: (Int, Int, Int), _ b: (Int, Int, Int)) -> Bool { abs(a.0 - b.0) < 16 && abs(a.1 - b.1) < 16 && abs(a.2 - b.2) < 16 }
        #expect(near(rgb(8, 4), (220, 40, 40)), "\(rgb(8, 4))")
        #expect(near(rgb(24, 4), (40, 200, 60)), "\(rgb(24, 4))")
        #expect(near(rgb(8, 12), (30, 60, 210)), "\(rgb(8, 12))")
        #expect(near(rgb(24, 12), (230, 220, 40)), "\(rgb(24, 12))")

        // The ISP scales it into a viewfinder like any half-size picture.
        let isp = PreviewISP(maximumSourceWidth: 64, maximumSourceHeight: 32, maximumOutputWidth: 128)
        var panel = [UInt32](repeating: 0, count: 128 * 80)
        half.withUnsafeBufferPointer { source in
            panel.withUnsafeMutableBufferPointer { out in
                isp.renderHalfSizeXRGB(source.baseAddress!, width: 32, height: 16, into: out.baseAddress!, outputWidth: 128,
                                       outputHeight: 80, outputStride: 128, destination: PixelRect(x: 0, y: 8, width: 128, height: 64))
            }
        }
        #expect(panel[0] == 0xFF00_0000, "the letterbox is black")
        let centre = panel[(8 + 16) * 128 + 32]
        #expect(near((Int(centre >> 16 & 0xFF), Int(centre >> 8 & 0xFF), Int(centre & 0xFF)), (220, 40, 40)))
    }

    /// Some webcams leave out the end marker: libjpeg-turbo warns, the picture is whole.
    @Test func aFrameWithoutItsEndMarkerIsStillShown() throws {
        var jpeg = Self.quadrantsJPEG()
        jpeg.removeLast(2)  // FF D9
        let (half, result) = try Self.decode(jpeg, width: 64, height: 32)
        #expect((try? result.get()) != nil)
        #expect(half[4 * 32 + 8] & 0x00FF_0000 > 0x00C0_0000, "the red quadrant is there")
    }

    @Test func aFrameOfTheWrongSizeIsRefused() throws {
        let jpeg = Self.quadrantsJPEG()
        let (_, result) = try Self.decode(jpeg, width: 128, height: 64)
        guard case .failure(let error) = result else {
            Issue.record("a 64x32 frame was taken for 128x64")
            return
        }
        #expect(error.message.contains("64x32"))
    }

    /// The realtime loop sizes the ISP in sensor pixels: twice the half-size picture. A
    /// 1280x720 camera's picture (640x360) scales into a 1280-wide viewfinder within it.
    @Test func theLoopsISPSizeHoldsAWebcamsHalfSizePicture() {
        let isp = PreviewISP(maximumSourceWidth: 1280, maximumSourceHeight: 720, maximumOutputWidth: 1280)
        let half = [UInt32](repeating: 0xFF33_6699, count: 640 * 360)
        var panel = [UInt32](repeating: 0, count: 1280 * 720)
        half.withUnsafeBufferPointer { source in
            panel.withUnsafeMutableBufferPointer { out in
                isp.renderHalfSizeXRGB(source.baseAddress!, width: 640, height: 360, into: out.baseAddress!, outputWidth: 1280,
                                       outputHeight: 720, outputStride: 1280, destination: PixelRect(x: 0, y: 0, width: 1280, height: 720))
            }
        }
        #expect(panel.allSatisfy { $0 == 0xFF33_6699 })
    }

    @Test func aDamagedFrameIsRefusedWithAReason() throws {
        var jpeg = Self.quadrantsJPEG()
        jpeg.removeLast(jpeg.count / 2)
        jpeg[2] = 0  // no longer a valid marker
        let (_, result) = try Self.decode(jpeg, width: 64, height: 32)
        guard case .failure(let error) = result else {
            Issue.record("a damaged frame was accepted")
            return
        }
        #expect(!error.message.isEmpty)
    }

    /// libjpeg's own memory manager mallocs each image's working memory and frees it at the
    /// image's end; the decoder's keeps it. Baseline and progressive frames (whole-image
    /// coefficient arrays), one after the other, as a camera could send them.
    @Test func aStreamsFramesAllocateNothingAfterTheFirst() throws {
        let (width, height) = (1280, 720)
        let frames = [Self.webcamJPEG(width: width, height: height),
                      Self.webcamJPEG(width: width, height: height, progressive: true)]
        let decoder = try #require(JPEGPreviewDecoder())
        let (halfWidth, halfHeight) = JPEGPreviewDecoder.halfSize(width: width, height: height)
        var pictures = [[UInt32]](repeating: [UInt32](repeating: 0, count: halfWidth * halfHeight), count: 2)
        var failures = 0
        func decodeBoth() {
            for index in 0..<2 {
                frames[index].withUnsafeBytes { jpeg in
                    pictures[index].withUnsafeMutableBytes { pixels in
                        if case .failure = decoder.decodeHalfSize(jpeg, width: width, height: height, into: pixels.baseAddress!) {
                            failures += 1
                        }
                    }
                }
            }
        }
        decodeBoth()
        let retained = decoder.retainedBytes
        let before = reflex_thread_allocations()
        // (More frames than the decoder waits before it gives memory back: a stream that needs
        // all of it keeps it.)
        for _ in 0..<70 { decodeBoth() }
        let allocations = reflex_thread_allocations() - before
        #expect(failures == 0)
        #expect(allocations == 0, "\(allocations) allocations in 140 frames")
        #expect(decoder.retainedBytes == retained, "the working memory does not grow: \(retained) → \(decoder.retainedBytes)")
        #expect(retained < 16 << 20, "\(retained) bytes kept")
        // Both pictures are the frame: the progressive one as the baseline one, within JPEG's loss.
        var largest = 0
        for (a, b) in zip(pictures[0], pictures[1]) {
            for shift in [0, 8, 16] as [UInt32] {
                largest = max(largest, abs(Int(a >> shift & 0xFF) - Int(b >> shift & 0xFF)))
            }
        }
        #expect(largest < 24, "progressive and baseline differ by up to \(largest) levels")
        let centre = pictures[0][halfHeight / 2 * halfWidth + halfWidth / 2]
        #expect(abs(Int(centre >> 16 & 0xFF) - 127) < 12 && abs(Int(centre >> 8 & 0xFF) - 127) < 12, "\(String(centre, radix: 16))")
    }

    /// A frame that fails halfway through decoding (a progressive frame whose third scan asks
    /// for an impossible band of coefficients: libjpeg fails while the whole-image arrays it
    /// decodes into are in use), between good ones: refused, and the next frames decode as a
    /// new decoder decodes them.
    @Test func aFrameFailingMidwayLeavesTheDecoderWhole() throws {
        let (width, height) = (256, 128)
        let good = Self.webcamJPEG(width: width, height: height, progressive: true)
        var damaged = good
        let scans = (0..<damaged.count - 1).filter { damaged[$0] == 0xFF && damaged[$0 + 1] == 0xDA }
        try #require(scans.count >= 3, "a progressive frame has several scans")
        // SOS: FF DA, length (2), component count n, n × 2 bytes, then Ss, Se, Ah/Al.
        let sos = scans[2], components = Int(damaged[sos + 4])
        damaged[sos + 5 + 2 * components] = 40      // Ss
        damaged[sos + 5 + 2 * components + 1] = 10  // Se, before Ss
        let decoder = Stream(try #require(JPEGPreviewDecoder()), width: width, height: height)
        let fresh = Stream(try #require(JPEGPreviewDecoder()), width: width, height: height)
        func decode(_ jpeg: [UInt8], with stream: Stream) -> Result<[UInt32], JPEGPreviewDecoder.DecodeError> {
            stream.decode(jpeg).map { stream.picture }
        }
        let expected = try decode(good, with: fresh).get()
        #expect(try decode(good, with: decoder).get() == expected)
        guard case .failure(let error) = decode(damaged, with: decoder) else {
            Issue.record("a frame with an impossible scan was accepted")
            return
        }
        #expect(error.message.lowercased().contains("progressi"), "\(error.message)")
        #expect(try decode(good, with: decoder).get() == expected)
        #expect(try decode(good, with: decoder).get() == expected)
    }

    /// Data lost inside a frame: libjpeg would fill the rest in grey and warn. That frame is
    /// damaged and refused (the viewfinder keeps the last whole picture), unlike a frame that
    /// lacks only its end marker.
    @Test func aFrameMissingPartOfItsDataIsRefused() throws {
        var jpeg = Self.webcamJPEG(width: 256, height: 128)
        jpeg.removeLast(jpeg.count / 3)
        let (_, result) = try Self.decode(jpeg, width: 256, height: 128)
        guard case .failure(let error) = result else {
            Issue.record("a frame missing a third of its data was shown")
            return
        }
        #expect(error.message.lowercased().contains("corrupt") || error.message.lowercased().contains("premature"),
                "\(error.message)")
    }

    /// A camera on a poor USB link sends damaged frames now and then: each is refused, and
    /// costs the sensor thread no allocation (its message is made only when read, to log).
    @Test func damagedFramesCostNoAllocation() throws {
        let good = Self.webcamJPEG(width: 256, height: 128)
        var damaged = good
        damaged.removeLast(damaged.count / 3)
        let stream = Stream(try #require(JPEGPreviewDecoder()), width: 256, height: 128)
        _ = stream.decode(good)
        _ = stream.decode(damaged)
        var refused = 0, shown = 0
        let before = reflex_thread_allocations()
        for _ in 0..<10 {
            if case .failure = stream.decode(damaged) { refused += 1 }
            if case .success = stream.decode(good) { shown += 1 }
        }
        let allocations = reflex_thread_allocations() - before
        #expect(refused == 10 && shown == 10)
        #expect(allocations == 0, "\(allocations) allocations in 10 damaged frames")
        guard case .failure(let error) = stream.decode(damaged) else {
            Issue.record("a damaged frame was shown")
            return
        }
        #expect(error.message.lowercased().contains("corrupt") || error.message.lowercased().contains("premature"),
                "\(error.message)")
    }

    /// One odd frame needing far more memory than the stream's usual ones (a progressive one:
    /// whole-image coefficient arrays) does not keep that memory for the rest of the stream:
    /// a few seconds of usual frames later the decoder holds what the usual frames need, and
    /// those still allocate nothing.
    @Test func memoryNoRecentFrameNeededIsGivenBack() throws {
        let (width, height) = (1280, 720)
        let baseline = Self.webcamJPEG(width: width, height: height)
        let progressive = Self.webcamJPEG(width: width, height: height, progressive: true)
        let usual = Stream(try #require(JPEGPreviewDecoder()), width: width, height: height)
        _ = usual.decode(baseline)
        let usualBytes = usual.decoder.retainedBytes
        let stream = Stream(try #require(JPEGPreviewDecoder()), width: width, height: height)
        _ = stream.decode(baseline)
        guard case .success = stream.decode(progressive) else {
            Issue.record("the progressive frame was not decoded")
            return
        }
        let peak = stream.decoder.retainedBytes
        #expect(peak >= usualBytes + 2 << 20, "the progressive frame needs more: \(usualBytes) → \(peak)")
        var failures = 0
        for _ in 0..<130 { if case .failure = stream.decode(baseline) { failures += 1 } }
        #expect(failures == 0)
        #expect(stream.decoder.retainedBytes == usualBytes, "\(peak) → \(stream.decoder.retainedBytes), usual \(usualBytes)")
        let before = reflex_thread_allocations()
        for _ in 0..<70 { _ = stream.decode(baseline) }
        #expect(reflex_thread_allocations() - before == 0)
    }

    /// A board short of memory caps the decoder's: a frame that needs more is refused with
    /// libjpeg's message and the stream's usual frames go on decoding.
    @Test func aDecoderUnderAMemoryLimitRefusesAFrameNeedingMore() throws {
        let (width, height) = (1280, 720)
        let baseline = Self.webcamJPEG(width: width, height: height)
        let progressive = Self.webcamJPEG(width: width, height: height, progressive: true)
        let limit = 3 << 20
        let stream = Stream(try #require(JPEGPreviewDecoder(memoryLimit: limit)), width: width, height: height)
        guard case .success = stream.decode(baseline) else {
            Issue.record("a baseline frame did not fit \(limit) bytes")
            return
        }
        guard case .failure(let error) = stream.decode(progressive) else {
            Issue.record("the progressive frame was decoded within \(limit) bytes: \(stream.decoder.retainedBytes)")
            return
        }
        #expect(error.message.lowercased().contains("memory"), "\(error.message)")
        #expect(stream.decoder.retainedBytes <= limit, "\(stream.decoder.retainedBytes)")
        guard case .success = stream.decode(baseline) else {
            Issue.record("the stream's frames stopped decoding after the refused one")
            return
        }
    }

    @Test func aWebcamsMotionJPEGIsChosenOnlyWithoutBayerOrYUYV() {
        let bayer: UInt32 = 0x3231_4752  // RG12
        #expect(StreamFormatChoice.best(of: [StreamFormatChoice.motionJPEG, bayer]) == bayer)
        #expect(StreamFormatChoice.best(of: [StreamFormatChoice.motionJPEG, StreamFormatChoice.yuyv]) == StreamFormatChoice.yuyv)
        #expect(StreamFormatChoice.best(of: [StreamFormatChoice.motionJPEG]) == StreamFormatChoice.motionJPEG)
    }
}
