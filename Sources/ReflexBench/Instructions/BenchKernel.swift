import CTurboJPEG
import CV4L2
import ReflexCore
import ReflexFormats
import ReflexHardware
import ReflexISP
import ReflexRuntime

/// One piece of the camera's work (or the library it is measured against), made ready to run
/// again and again on the same input: what `reflex bench instructions` counts the
/// instructions of, and times, one call at a time.
enum BenchKernel: String, CaseIterable {
    /// The preview ISP: the IMX219's 1080p RAW10 frame into a 1280x800 panel, one thread.
    case isp
    /// libv4lconvert converting the same frame to RGB24: the ISP's reference.
    case v4lconvert
    /// The photo ISP: a 12 MP raw frame demosaiced into RGB (the still path before the JPEG).
    case photoISP = "photo-isp"
    /// The JPEG encoder: that picture at quality 92, 4:2:0, with its EXIF.
    case jpeg
    /// TurboJPEG encoding the same pixels with the same settings: the JPEG's reference.
    case turbojpeg
    /// Enhanced RAW's merge: 8 frames aligned and merged, one thread.
    case merge

    /// The kernel it is measured against, when it has one.
    var reference: BenchKernel? {
        switch self {
        case .isp: .v4lconvert
        case .jpeg: .turbojpeg
        default: nil
        }
    }

    /// What one call does, for the table.
    var work: String {
        switch self {
        case .isp: "IMX219 1920x1080 RAW10 → 1280x800 panel"
        case .v4lconvert: "the same frame → RGB24"
        case .photoISP: "raw → RGB, demosaic and colour"
        case .jpeg: "RGB → JPEG, q92 4:2:0, EXIF"
        case .turbojpeg: "the same pixels, same settings"
        case .merge: "8 raw frames aligned and merged"
        }
    }

    /// Sets up the input (outside what is counted) and gives the call to measure, and what frees
    /// its input afterwards. `width`×`height` is the large frames' size (photo ISP, JPEG, merge).
    func prepare(testdata: String, width: Int, height: Int) throws -> (run: () -> Void, release: () -> Void) {
        switch self {
        case .isp, .v4lconvert: try Self.preview(self, testdata: testdata)
        case .photoISP, .jpeg, .turbojpeg: try Self.still(self, width: width, height: height)
        case .merge: Self.merge(width: width, height: height)
        }
    }

    /// `bench isp`'s IMX219 frame, as that bench reads it.
    private static let previewFrame = ISPBench.frames[0]

    private static func preview(_ kernel: BenchKernel, testdata: String) throws -> (run: () -> Void, release: () -> Void) {
        let frame = previewFrame, layout = previewFrame.layout
        let bytes = try TestData.load(testdata + "/raw/" + frame.file)
        guard bytes.count >= layout.byteCount else { throw BenchError("\(frame.file) is too short") }
        if kernel == .v4lconvert {
            guard let converter = V4LConvert() else { throw BenchError("libv4lconvert cannot start") }
            let rgb = UnsafeMutableRawBufferPointer.allocate(byteCount: layout.width * layout.height * 3, alignment: 64)
            let source = UnsafeRawBufferPointer(start: bytes.baseAddress!, count: layout.byteCount)
            return ({
                _ = converter.convert(source, width: layout.width, height: layout.height, bytesPerLine: layout.bytesPerLine,
                                      from: frame.fourCC, to: REFLEX_V4L2_PIX_FMT_RGB24, into: rgb)
            }, { rgb.deallocate(); bytes.deallocate() })
        }
        let (width, height) = (1280, 800)
        let isp = PreviewISP(maximumSourceWidth: layout.width, maximumSourceHeight: layout.height, maximumOutputWidth: width)
        isp.setParameters(ISPParameters(blackLevel: frame.blackLevel, whiteLevel: layout.format.maximumValue,
                                        whiteBalance: SIMD3(1.9, 1, 1.6), digitalGain: 2), format: layout.format)
        let panel = UnsafeMutablePointer<UInt32>.allocate(capacity: width * height)
        let destination = PixelRect(x: 0, y: 0, width: width, height: height)
            .fitting(sourceWidth: layout.width, sourceHeight: layout.height)
        return ({
            isp.renderBayer(bytes.baseAddress!, layout: layout, into: panel, outputWidth: width, outputHeight: height,
                            outputStride: width, destination: destination)
        }, { panel.deallocate(); bytes.deallocate() })
    }

    private static func still(_ kernel: BenchKernel, width: Int, height: Int) throws -> (run: () -> Void, release: () -> Void) {
        let frame = LargeFrame(width: width, height: height)
        let rgb = UnsafeMutablePointer<UInt8>.allocate(capacity: width * height * 3)
        let isp = PhotoISP(maximumWidth: width, maximumSourceWidth: width)
        let develop = {
            isp.render(frame.bytes.baseAddress!, layout: frame.layout, parameters: frame.parameters, into: rgb,
                       outputStride: width * 3)
        }
        let release = { rgb.deallocate(); frame.free() }
        if kernel == .photoISP { return (develop, release) }
        develop()
        let image = RGBImage(pixels: rgb, width: width, height: height)
        if kernel == .jpeg {
            return ({ _ = try? JPEGEncoder.encode(image, quality: 92, photo: PhotoFileBench.photo) }, release)
        }
        guard let handle = tjInitCompress() else {
            release()
            throw BenchError("TurboJPEG cannot start")
        }
        return ({
            var buffer: UnsafeMutablePointer<UInt8>?
            var length: UInt = 0
            _ = tjCompress2(handle, rgb, Int32(width), 0, Int32(height), Int32(TJPF_RGB.rawValue), &buffer, &length,
                            Int32(TJSAMP_420.rawValue), 92, REFLEX_TJFLAG_ACCURATEDCT)
            tjFree(buffer)
        }, { tjDestroy(handle); release() })
    }

    private static func merge(width: Int, height: Int) -> (run: () -> Void, release: () -> Void) {
        let frames = (1...8).map { LargeFrame(width: width, height: height, frameNumber: UInt64($0)) }
        let pointers = frames.map { UnsafeRawPointer($0.bytes.baseAddress!) }
        let layout = frames[0].layout
        return ({
            _ = RawBurstMerge.merge(pointers, layout: layout, blackLevel: SimulatedScene.blackLevel,
                                    whiteLevel: SimulatedScene.whiteLevel, noise: SensorCalibration.simulated.noise(atGain: 2))
        }, { frames.forEach { $0.free() } })
    }
}
