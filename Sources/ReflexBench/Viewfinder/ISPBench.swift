import ArgumentParser
import ReflexCore
import ReflexRuntime
import CAllocationCounter
import CTurboJPEG
import CV4L2
import ReflexHardware
import ReflexISP
#if canImport(Glibc)
import Glibc
#endif

/// The preview ISP on real sensor frames (Tests/Data/raw) into a 1280x800 panel,
/// beside libv4lconvert converting the same frame to RGB24, memcpy of the same bytes, and
/// writing the panel alone (what the ISP's output costs to store, whatever computes it).
struct ISPBench: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "isp", abstract: "Benchmark the preview ISP.")

    @Option(help: "Timed iterations of each case.") var iterations = 200
    @Option(help: "The test data folder (default: the repository's Tests/Data, found from here or from the binary).")
    var testdata: String?
    @Option(help: "Panel width.") var width = 1280
    @Option(help: "Panel height.") var height = 800
    @Option(help: "Write each rendered panel as a PPM image into this folder, to look at.")
    var save: String?

    func validate() throws {
        guard iterations >= 1 else { throw ValidationError("--iterations must be at least 1") }
    }

    struct Frame {
        let name: String
        let file: String
        let layout: RawLayout
        let fourCC: UInt32
        let blackLevel: Int

        /// What each row's throughput counts.
        var pixels: Double { Double(layout.width * layout.height) }
    }

    /// The sensor frames in Tests/Data/raw (the first, the IMX219's, is also `bench kernel isp`'s).
    static let frames = [
        Frame(name: "IMX219 1920x1080 RAW10 CSI-2 packed", file: "imx219_1920x1080_SRGGB10_CSI2P.raw",
              layout: RawLayout(width: 1920, height: 1080, bytesPerLine: 2400,
                                format: RawFormat(cfa: .rggb, bitsPerSample: 10, packing: .csi2Packed10)),
              fourCC: REFLEX_V4L2_PIX_FMT_SRGGB10P, blackLevel: 64),
        Frame(name: "openISP 1920x1080 RGGB 16-bit (10 used)", file: "openisp_1920x1080_10bit_RGGB_u16le.raw",
              layout: RawLayout(width: 1920, height: 1080,
                                format: RawFormat(cfa: .rggb, bitsPerSample: 10, packing: .unpacked16)),
              fourCC: REFLEX_V4L2_PIX_FMT_SRGGB10, blackLevel: 0),
    ]

    func run() throws {
        guard let folder = TestData.locate(testdata) else {
            throw BenchError("no test data: pass --testdata DIR (the repository's Tests/Data)")
        }
        let tools = Tools(width: width, height: height)
        defer { tools.release() }
        var statistics = FrameStatistics()

        print("Preview ISP into \(width)x\(height), \(iterations) iterations a case, one thread")
        print(Row.header)
        for frame in ISPBench.frames {
            try benchFrame(frame, folder: folder, tools: tools, statistics: &statistics)
        }
        try benchMotionJPEG(folder: folder)
    }

    /// What every frame's rows run with, made once: one ISP, the panel it renders into, room
    /// for libv4lconvert's RGB24 and for memcpy's copy, libv4lconvert (nil when it cannot
    /// start), and the picture worker. `release` stops and frees them.
    private struct Tools {
        let isp: PreviewISP
        let panel: UnsafeMutablePointer<UInt32>
        let rgb: UnsafeMutableRawBufferPointer
        let copy: UnsafeMutableRawBufferPointer
        let converter: V4LConvert?
        let worker: PictureWorker
        let workerRunning: Bool

        init(width: Int, height: Int) {
            isp = PreviewISP(maximumSourceWidth: 1920, maximumSourceHeight: 1080, maximumOutputWidth: width)
            panel = UnsafeMutablePointer<UInt32>.allocate(capacity: width * height)
            rgb = UnsafeMutableRawBufferPointer.allocate(byteCount: 1920 * 1080 * 3, alignment: 64)
            copy = UnsafeMutableRawBufferPointer.allocate(byteCount: 1920 * 1080 * 2, alignment: 64)
            converter = V4LConvert()
            // The camera's own arrangement on a machine with two CPUs: bands of each picture on a
            // worker with an ISP of its own, the rest here (see PictureWorker).
            worker = PictureWorker()
            workerRunning = PictureWorker.isUseful && worker.start()
        }

        func release() {
            worker.stop()
            copy.deallocate()
            rgb.deallocate()
            panel.deallocate()
        }
    }

    /// One test frame's rows: the preview ISP's, libv4lconvert's beside them, and the references
    /// that only move bytes.
    private func benchFrame(_ frame: Frame, folder: String, tools: Tools, statistics: inout FrameStatistics) throws {
        let bytes = try TestData.load(folder + "/raw/" + frame.file)
        defer { bytes.deallocate() }
        guard bytes.count >= frame.layout.byteCount else { throw BenchError("\(frame.file) is too short") }
        let source = UnsafeRawPointer(bytes.baseAddress!)
        let destination = PixelRect(x: 0, y: 0, width: width, height: height)
            .fitting(sourceWidth: frame.layout.width, sourceHeight: frame.layout.height)
        let parameters = ISPParameters(blackLevel: frame.blackLevel, whiteLevel: frame.layout.format.maximumValue,
                                       whiteBalance: SIMD3(1.9, 1, 1.6), digitalGain: 2)
        tools.isp.setParameters(parameters, format: frame.layout.format)
        print("\(frame.name):")
        let (ispRow, onTwoCores) = try benchPreviewISP(frame, source: source, parameters: parameters,
                                                       destination: destination, tools: tools, statistics: &statistics)
        if let converter = tools.converter {
            benchLibv4lconvert(converter, frame: frame, source: source, destination: destination, tools: tools,
                               ispRow: ispRow, onTwoCores: onTwoCores)
        }
        benchMemoryReferences(frame, source: source, tools: tools)
    }

    /// The preview ISP's rows for one frame: into the panel (written out with --save), the
    /// half-size picture alone, on two cores when the worker runs, and the statistics. Gives the
    /// first row, and the two-core render, for the comparison with libv4lconvert.
    private func benchPreviewISP(_ frame: Frame, source: UnsafeRawPointer, parameters: ISPParameters,
                                 destination: PixelRect, tools: Tools,
                                 statistics: inout FrameStatistics) throws -> (row: Row, onTwoCores: () -> Void) {
        let (isp, panel, worker) = (tools.isp, tools.panel, tools.worker)
        let ispRow = Row.measure("reflex preview ISP", pixels: frame.pixels, iterations: iterations) {
            isp.renderBayer(source, layout: frame.layout, into: panel, outputWidth: width, outputHeight: height,
                            outputStride: width, destination: destination)
        }
        print(ispRow)
        if let save {
            try PPM.write(panel, width: width, height: height, to: save + "/" + frame.file + ".ppm")
        }
        // The frame as the realtime loop gets it, for the two-band case.
        let preview = PreviewFrame()
        preview.fill(UnsafeRawBufferPointer(start: source, count: frame.layout.byteCount),
                     width: frame.layout.width, height: frame.layout.height,
                     bytesPerLine: frame.layout.bytesPerLine, kind: .bayer(frame.layout.format),
                     parameters: parameters, sequence: 0, sensorZoom: 1)
        let onTwoCores = {
            worker.render(preview, with: isp, into: panel, stride: width, outputWidth: width, outputHeight: height,
                          viewfinder: destination, crop: nil)
        }
        // The half-size picture alone: every tile row made, each scaled to a single pixel.
        let tileRows = min(frame.layout.height / 2, height)
        print(Row.measure("  of which the half-size picture", pixels: frame.pixels, iterations: iterations) {
            isp.renderBayer(source, layout: frame.layout, into: panel, outputWidth: 1, outputHeight: tileRows,
                            outputStride: width, destination: PixelRect(x: 0, y: 0, width: 1, height: tileRows))
        })
        if tools.workerRunning { print(Row.measure("reflex preview ISP on two cores (in bands)", pixels: frame.pixels, iterations: iterations, onTwoCores)) }
        print(Row.measure("reflex statistics (1/16 tiles)", pixels: frame.pixels, iterations: iterations) {
            isp.collectStatistics(source, layout: frame.layout, into: &statistics)
        })
        return (ispRow, onTwoCores)
    }

    /// libv4lconvert converting the same frame to RGB24, and the ISP's speed-up over it: from the
    /// medians, and timed in pairs (the ISP on two cores too, when the worker runs).
    private func benchLibv4lconvert(_ converter: V4LConvert, frame: Frame, source: UnsafeRawPointer,
                                    destination: PixelRect, tools: Tools, ispRow: Row, onTwoCores: () -> Void) {
        let (isp, panel, rgb) = (tools.isp, tools.panel, tools.rgb)
        let raw = UnsafeRawBufferPointer(start: source, count: frame.layout.byteCount)
        let convert = {
            converter.convert(raw, width: frame.layout.width, height: frame.layout.height,
                              bytesPerLine: frame.layout.bytesPerLine, from: frame.fourCC,
                              to: REFLEX_V4L2_PIX_FMT_RGB24, into: rgb)
        }
        switch convert() {
        case .success:
            let reference = Row.measure("libv4lconvert → RGB24 (full size)", pixels: frame.pixels, iterations: iterations) {
                _ = convert()
            }
            print(reference)
            let paired = Row.pairedRatio(iterations: iterations, { _ = convert() }, {
                isp.renderBayer(source, layout: frame.layout, into: panel, outputWidth: width, outputHeight: height,
                                outputStride: width, destination: destination)
            })
            print("  ISP speed-up over libv4lconvert: \(Formatting.fixed(reference.median / ispRow.median, 1))x "
                  + "(the medians above); \(Formatting.fixed(paired, 1))x timed in pairs")
            if tools.workerRunning {
                let pairedOnTwoCores = Row.pairedRatio(iterations: iterations, { _ = convert() }, onTwoCores)
                print("    on two cores (libv4lconvert on one): \(Formatting.fixed(pairedOnTwoCores, 1))x timed in pairs")
            }
        case .failure(let error):
            print("  libv4lconvert → RGB24: cannot convert this format (\(error))")
        }
    }

    /// The references that only move bytes: memcpy of the frame, and writing the panel.
    private func benchMemoryReferences(_ frame: Frame, source: UnsafeRawPointer, tools: Tools) {
        let (copy, panel) = (tools.copy, tools.panel)
        print(Row.measure("memcpy of the frame's \(frame.layout.byteCount) bytes", pixels: frame.pixels,
                          iterations: iterations) {
            _ = memcpy(copy.baseAddress!, source, min(frame.layout.byteCount, copy.count))
        })
        // The floor under any ISP: only writing the output it fills, once.
        print(Row.measure("writing the \(width)x\(height) output alone", pixels: frame.pixels, iterations: iterations) {
            panel.update(repeating: 0xFF00_0000, count: width * height)
        })
    }

    /// A webcam's Motion-JPEG frame (the IMX219 frame's picture, encoded at 1080p in 4:2:2 as
    /// UVC cameras send it) decoded at half size by the preview's decoder, beside libjpeg-turbo's
    /// own TurboJPEG API doing the same decode with libjpeg's memory manager.
    func benchMotionJPEG(folder: String) throws {
        let (frameWidth, frameHeight) = (1920, 1080)
        let layout = RawLayout(width: frameWidth, height: frameHeight, bytesPerLine: 2400,
                               format: RawFormat(cfa: .rggb, bitsPerSample: 10, packing: .csi2Packed10))
        let raw = try TestData.load(folder + "/raw/imx219_1920x1080_SRGGB10_CSI2P.raw")
        defer { raw.deallocate() }
        guard raw.count >= layout.byteCount else { throw BenchError("the IMX219 frame is too short") }
        let picture = UnsafeMutablePointer<UInt32>.allocate(capacity: frameWidth * frameHeight)
        defer { picture.deallocate() }
        let isp = PreviewISP(maximumSourceWidth: frameWidth, maximumSourceHeight: frameHeight, maximumOutputWidth: frameWidth)
        isp.setParameters(ISPParameters(blackLevel: 64, whiteLevel: 1023, whiteBalance: SIMD3(1.9, 1, 1.6), digitalGain: 2),
                          format: layout.format)
        isp.renderBayer(raw.baseAddress!, layout: layout, into: picture, outputWidth: frameWidth, outputHeight: frameHeight,
                        outputStride: frameWidth, destination: PixelRect(x: 0, y: 0, width: frameWidth, height: frameHeight))
        guard let compressor = tjInitCompress(), let turbo = tjInitDecompress(), let decoder = JPEGPreviewDecoder() else {
            throw BenchError("libjpeg-turbo did not start")
        }
        defer { tjDestroy(compressor); tjDestroy(turbo) }
        var jpeg: UnsafeMutablePointer<UInt8>?
        var jpegSize: UInt = 0
        guard tjCompress2(compressor, UnsafeRawPointer(picture).assumingMemoryBound(to: UInt8.self), Int32(frameWidth),
                          Int32(frameWidth * 4), Int32(frameHeight), Int32(TJPF_BGRX.rawValue), &jpeg, &jpegSize,
                          Int32(TJSAMP_422.rawValue), 85, 0) == 0, let jpeg else {
            throw BenchError("the Motion-JPEG frame could not be made: \(String(cString: tjGetErrorStr2(compressor)))")
        }
        defer { tjFree(jpeg) }
        let frame = UnsafeRawBufferPointer(start: jpeg, count: Int(jpegSize))
        let (halfWidth, halfHeight) = JPEGPreviewDecoder.halfSize(width: frameWidth, height: frameHeight)
        let pixels = Double(frameWidth * frameHeight)
        print("Motion-JPEG \(frameWidth)x\(frameHeight) 4:2:2, \(jpegSize) bytes, into the \(halfWidth)x\(halfHeight) picture:")
        let ours = { _ = decoder.decodeHalfSize(frame, width: frameWidth, height: frameHeight, into: picture) }
        let turboJPEG = {
            _ = tjDecompress2(turbo, jpeg, jpegSize, UnsafeMutableRawPointer(picture).assumingMemoryBound(to: UInt8.self),
                              Int32(halfWidth), Int32(halfWidth * 4), Int32(halfHeight), Int32(TJPF_BGRX.rawValue),
                              REFLEX_TJFLAG_FASTDCT)
        }
        print(Row.measure("reflex Motion-JPEG decoder (libjpeg)", pixels: pixels, iterations: iterations, ours))
        print(Row.measure("libjpeg-turbo's TurboJPEG, the same decode", pixels: pixels, iterations: iterations, turboJPEG))
        let paired = Row.pairedRatio(iterations: iterations, turboJPEG, ours)
        print("  TurboJPEG's time over the decoder's: \(Formatting.fixed(paired, 2))x timed in pairs")
    }
}
