import ReflexCore
import ReflexHardware
import ReflexISP
import Testing
@testable import ReflexRuntime

/// The picture on two cores: the loop and the worker take bands of each frame until none are
/// left, and the panel must be exactly what one thread draws.
@Suite("The picture worker")
struct PictureWorkerTests {
    /// Every output row is in exactly one band, whatever the height.
    @Test(arguments: [1, 5, 15, 16, 17, 720, 800, 801])
    func theBandsCoverEveryRowOnce(height: Int) {
        var next = 0
        for band in 0..<PictureWorker.bandsPerFrame {
            let rows = PictureWorker.rows(ofBand: band, height: height)
            #expect(rows.isEmpty || rows.lowerBound == next, "band \(band) starts at \(rows.lowerBound), not \(next)")
            next = max(next, rows.upperBound)
        }
        #expect(next == height)
    }

    /// Frame after frame, bands taken by whichever thread is free give the picture one thread
    /// renders, and the worker does take some of them (on a machine with a second CPU).
    @Test func framesRenderedOnTwoCoresAreThePictureRenderedOnOne() throws {
        let (width, height, panelWidth, panelHeight) = (960, 540, 640, 400)
        var bytes = [UInt8](repeating: 0, count: width * height * 2)
        for i in 0..<(width * height) {
            let value = UInt16(64 + (i &* 2_654_435_761 >> 7) % 900)
            bytes[2 * i] = UInt8(value & 0xFF)
            bytes[2 * i + 1] = UInt8(value >> 8)
        }
        let format = RawFormat(cfa: .rggb, bitsPerSample: 10, packing: .unpacked16)
        let frame = PreviewFrame()
        bytes.withUnsafeBytes { raw in
            frame.fill(raw, width: width, height: height, bytesPerLine: width * 2, kind: .bayer(format),
                       parameters: ISPParameters(blackLevel: 64, whiteLevel: 1023), sequence: 0, sensorZoom: 1)
        }
        let viewfinder = PixelRect(x: 0, y: 0, width: panelWidth, height: panelHeight)
            .fitting(sourceWidth: width, sourceHeight: height)
        let isp = PreviewISP(maximumSourceWidth: width, maximumSourceHeight: height, maximumOutputWidth: panelWidth)
        var whole = [UInt32](repeating: 0, count: panelWidth * panelHeight)
        whole.withUnsafeMutableBufferPointer { out in
            isp.render(frame, into: out.baseAddress!, stride: panelWidth, outputWidth: panelWidth,
                       outputHeight: panelHeight, viewfinder: viewfinder, crop: nil, rows: 0..<panelHeight)
        }
        let worker = PictureWorker()
        #expect(worker.start())
        defer { worker.stop() }
        var banded = [UInt32](repeating: 0, count: panelWidth * panelHeight)
        var differing = 0
        for _ in 0..<30 {
            banded.withUnsafeMutableBufferPointer { out in
                out.update(repeating: 0x1234_5678)
                worker.render(frame, with: isp, into: out.baseAddress!, stride: panelWidth, outputWidth: panelWidth,
                              outputHeight: panelHeight, viewfinder: viewfinder, crop: nil)
            }
            if banded != whole { differing += 1 }
        }
        #expect(differing == 0, "\(differing) of 30 frames differ from the picture drawn whole")
        if PictureWorker.isUseful {
            #expect(worker.bandsRenderedByWorker > 0, "the worker rendered no band in 30 frames")
        }
    }
}
