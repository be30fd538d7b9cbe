import ArgumentParser
import ReflexCore
import ReflexFormats
import ReflexHardware
import ReflexISP
import ReflexRuntime
import ReflexStorage
import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// `reflex bench capture`: the photo's path, each part beside its reference in the same run —
/// the shutter's lag on the simulated sensor (and a still mode's, where a board switches), the DNG beside write + fsync of as many bytes,
/// the JPEG beside TurboJPEG alone, the still path beside LibRaw developing our DNG, the
/// demosaic's quality against the simulator's truth beside LibRaw's AHD, and the realtime
/// loop while ten RAW+JPEG photos are saved.
struct CaptureBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "capture", abstract: "Benchmark taking and saving photos against references.")

    @Option(help: "Shutter presses on the simulated sensor.") var presses = 100
    @Option(help: "The large frame's size (a 12 MP sensor: 4056x3040, the Raspberry Pi HQ camera's).")
    var size = "4056x3040"
    @Option(help: "Repetitions of each file timing.") var iterations = 5
    @Option(help: "RAW+JPEG photos saved while the realtime loop runs.") var saves = 10
    @Option(help: "Where files are written (default: a folder under /tmp; give the card's to bench the card).")
    var folder: String?
    @Option(help: "The test data folder (default: the repository's Tests/Data).") var testdata: String?

    func run() throws {
        let sides = size.lowercased().split(separator: "x").compactMap { Int($0) }
        guard sides.count == 2, sides.allSatisfy({ $0 >= 64 && $0 % 2 == 0 }) else {
            throw ValidationError("--size is WIDTHxHEIGHT, even, at least 64x64")
        }
        let work = folder ?? "/tmp/reflex-bench-capture-\(getpid())"
        try AtomicFile.createFolder(work)
        defer { if folder == nil { _ = system("rm -rf '\(work)'") } }

        try ShutterLagBench(presses: presses, folder: work + "/lag").run()
        try StillModeBench(switches: 20).run()
        let frame = LargeFrame(width: sides[0], height: sides[1])
        defer { frame.free() }
        try PhotoFileBench(frame: frame, folder: work, iterations: iterations).run()
        try DemosaicQualityBench(folder: work).run()
        try SavingLoopBench(frame: frame, saves: saves, folder: work + "/saving", testdata: testdata).run()
    }
}

/// A large raw frame of the simulated scene (RGGB 12-bit), as a high-resolution sensor's.
struct LargeFrame {
    let layout: RawLayout
    let bytes: UnsafeMutableRawBufferPointer
    let mode: CameraSession.Mode
    let exposure = ExposureSetting(exposure: 0.01, analogGain: 2)
    let parameters = ISPParameters(blackLevel: SimulatedScene.blackLevel, whiteLevel: SimulatedScene.whiteLevel,
                                   whiteBalance: SIMD3(1.2, 1, 1.4), colorMatrix: ColourCalibration().previewMatrix)

    /// `frameNumber`: another number, another noise (a burst's frames).
    init(width: Int, height: Int, frameNumber: UInt64 = 1) {
        layout = RawLayout(width: width, height: height, format: SimulatedScene.format)
        bytes = .allocate(byteCount: layout.byteCount, alignment: 64)
        SimulatedScene(noise: true).render(into: bytes.baseAddress!, layout: layout, time: 0.5,
                                           setting: ExposureSetting(exposure: 0.01, analogGain: 2), frameNumber: frameNumber)
        mode = CameraSession.Mode(path: "bench", card: "simulated \(width)x\(height)", fourCC: 0x3231_4752, width: width,
                                  height: height, bytesPerLine: layout.bytesPerLine, rawFormat: layout.format,
                                  framesPerSecond: 10)
    }

    var megapixels: String { Formatting.fixed(Double(layout.width * layout.height) / 1e6, 1, width: 0) + " MP" }

    /// The frame as the sensor thread hands it to sinks.
    func sensorFrame(sequence: UInt32) -> SensorFrame {
        SensorFrame(bytes: UnsafeRawBufferPointer(bytes), mode: mode, sequence: sequence, timestampNanoseconds: 0,
                    exposure: exposure, parameters: parameters, sensorZoom: 1)
    }

    func free() { bytes.deallocate() }
}

/// Seconds a body takes, the median of `count` runs.
func medianSeconds(_ count: Int, _ body: () throws -> Void) rethrows -> Double {
    var times: [Double] = []
    for _ in 0..<max(count, 1) {
        let start = monotonicSeconds()
        try body()
        times.append(monotonicSeconds() - start)
    }
    return times.sorted()[times.count / 2]
}

func milliseconds(_ seconds: Double) -> String { Formatting.fixed(seconds * 1000, 1, width: 0) + " ms" }
