import ArgumentParser
import CV4L2
import CAllocationCounter
import ReflexCore
import ReflexHardware
import ReflexISP
import ReflexRuntime
import ReflexSystem
import ReflexUI
#if canImport(Glibc)
import Glibc
#endif

/// The whole frame path as the camera runs it: the realtime loop on the headless display at a
/// simulated 60 Hz vblank, a new IMX219 1080p RAW10 frame every vblank through the preview
/// ISP, and the interface over it. Reports frame-time percentiles, missed vblanks and heap
/// allocations, beside the ISP alone and a memcpy of the panel's buffer in the same run.
struct FrameBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "frame", abstract: "Benchmark the full frame path (ISP + interface) at 60 Hz.")

    @Option(help: "Frames to present (3600 = one minute at 60 Hz).") var frames = 3600
    @Option(help: "The test data folder (default: the repository's Tests/Data).") var testdata: String?
    @Option(help: "Frames between two changes of the exposure readout (a HUD repaint); 0 for never.")
    var readoutChangeEvery = 30
    @Flag(help: "Pro mode: the dials on screen (they fade after 3 s).") var pro = false
    @Flag(help: "Render the whole picture on the loop's thread (no second core), as on a one-CPU board.")
    var singleThreadedPicture = false
    @Option(help: "Photos saved by the photo thread during the measured frames (in --saving-format).") var whileSaving = 0
    @Option(help: "Where those photos go.") var savingFolder = "/tmp/reflex-bench-saving"
    @Option(help: "Their frame's size.") var savingSize = "4056x3040"
    @Option(help: "Their format (enhanced-raw: each merged from 8 frames, at most 7 photos).") var savingFormat = "raw+jpeg"
    @Option(help: "Frames between two injected inputs (a dial's detent in Pro, a tap on the picture in Auto), each at another phase of the vblank; their wait until the flip that shows them is reported. 0 for none.")
    var inputEvery = 12
    @Option(help: "Phones watching the remote's live view meanwhile (each paired, over its own WebSocket on the loopback): their pictures a second and latency beside the loop's figures.")
    var remoteViewers = 0
    @Option(help: "Megabytes a computer fetches over USB from Reflex's gadget meanwhile (dummy_hcd, as root): the same DNG again and again from the measured frames' start; more frames than the transfer takes keep it under way throughout. 0 for none.")
    var usbMegabytes = 0
    @Flag(inversion: .prefixedNo, help: "The references in the same run (the ISP alone, the interface alone, a memcpy of the panel); a bench comparing two loop runs of its own leaves them out.")
    var references = true

    func run() throws {
        let (folder, fontFolder) = try locateFolders()
        let frame = try TestFrame(folder: folder)
        defer { frame.raw.deallocate() }
        let display = try HeadlessDisplay(folder: nil)
        let preview = PreviewSink()
        let status = StatusBoard()
        let loop = try makeLoop(display: display, preview: preview, status: status, fontFolder: fontFolder)
        var report = FrameBench.streamingReport()

        printHeading(display: display)
        let stealAtStart = HostStealTime.milliseconds()
        try startLoop(loop)
        defer { loop.stop() }
        let saves = try startSaves()
        defer { saves?.stop() }
        var companions: [BenchCompanion] = []
        defer { companions.forEach { $0.stop() } }
        if remoteViewers > 0 { companions.append(try BenchPhones(count: remoteViewers, loop: loop)) }
        if usbMegabytes > 0 { companions.append(try BenchUSBTransfer(megabytes: usbMegabytes)) }
        let (warm, stepAllocations) = runMeasuredFrames(loop: loop, display: display, preview: preview, status: status,
                                                        frame: frame, report: &report, companions: companions)
        printLoopFigures(loop, warm: warm, stepAllocations: stepAllocations, stealAtStart: stealAtStart)
        for companion in companions { print("  " + companion.summary()) }
        if let saves {
            let (saved, seconds) = saves.progress
            print("  \(saves.format.rawValue) photos saved during the measured frames: \(saved) of \(saves.count), "
                  + "\(Formatting.fixed(seconds, 1)) s after they were queued")
        }
        if references { try printReferenceRows(frame: frame, display: display, fontFolder: fontFolder) }
        print("  target: p99 ≤ 8 ms, 0 missed vblanks, 0 allocations once running")
    }

    /// With --while-saving: the photos queued to the photo thread (before the warm-up, so the
    /// measured frames run while they are saved).
    private func startSaves() throws -> BackgroundSaves? {
        guard whileSaving > 0 else { return nil }
        let sides = savingSize.lowercased().split(separator: "x").compactMap { Int($0) }
        guard sides.count == 2 else { throw BenchError("--saving-size is WIDTHxHEIGHT") }
        guard let format = CaptureFormat(rawValue: savingFormat) else {
            throw BenchError("--saving-format is one of \(CaptureFormat.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let saves = try BackgroundSaves(frame: LargeFrame(width: sides[0], height: sides[1]), count: whileSaving,
                                        folder: savingFolder, format: format)
        try saves.start()
        return saves
    }

    /// Frames presented before the measured ones: the figures "after warm-up" leave them out.
    private static let warmUp = 60

    /// The IMX219's 1080p RAW10 frame from the test data, with how a session streams it and how
    /// the ISP renders it. The caller frees `raw`.
    private struct TestFrame {
        let layout = RawLayout(width: 1920, height: 1080, bytesPerLine: 2400,
                               format: RawFormat(cfa: .rggb, bitsPerSample: 10, packing: .csi2Packed10))
        let raw: UnsafeMutableRawBufferPointer
        let parameters = ISPParameters(blackLevel: 64, whiteLevel: 1023, whiteBalance: SIMD3(1.9, 1, 1.6), digitalGain: 2)
        let mode: CameraSession.Mode
        let exposure = ExposureSetting(exposure: 1.0 / 60, analogGain: 1, digitalGain: 2)

        init(folder: String) throws {
            raw = try TestData.load(folder + "/raw/imx219_1920x1080_SRGGB10_CSI2P.raw")
            // The IMX219's 1080p mode, as a session would stream it.
            mode = CameraSession.Mode(path: "bench", card: "IMX219 frame", fourCC: REFLEX_V4L2_PIX_FMT_SRGGB10P, width: 1920,
                                      height: 1080, bytesPerLine: 2400, rawFormat: layout.format, framesPerSecond: 60)
        }
    }

    /// The test data's folder and the fonts' folder.
    private func locateFolders() throws -> (testData: String, fonts: String) {
        guard let folder = TestData.locate(testdata) else {
            throw BenchError("no test data: pass --testdata DIR (the repository's Tests/Data)")
        }
        let fontFolder = try BenchFonts.folder()
        return (folder, fontFolder)
    }

    /// Auto, or Pro with --pro.
    private var settings: CameraSettings {
        var settings = CameraSettings()
        if pro { settings.mode = .pro }
        return settings
    }

    /// The realtime loop on the headless display, fed by the preview sink and the status board.
    private func makeLoop(display: HeadlessDisplay, preview: PreviewSink, status: StatusBoard,
                          fontFolder: String) throws -> FrameLoop {
        FrameLoop(display: display, preview: preview, status: status, mailbox: nil,
                  fonts: try FontLibrary(folder: fontFolder),
                  model: CameraModel(settings: settings, limits: .unlimited), fNumber: 2.8)
    }

    /// What the sensor thread reports while streaming 1080p: a histogram for the interface to draw.
    private static func streamingReport() -> SensorReport {
        var report = SensorReport()
        report.status = .streaming
        report.width = 1920
        report.height = 1080
        report.hasHistogram = true
        for bin in 0..<64 { report.histogram[bin] = UInt32(100 + bin * (64 - bin)) }
        return report
    }

    private func printHeading(display: HeadlessDisplay) {
        print("Full frame path: IMX219 1920x1080 RAW10 → \(display.width)x\(display.height) with the interface, "
              + "headless display at 60 Hz, \(frames) frames" + (pro ? ", Pro" : ", Auto")
              + (readoutChangeEvery > 0 ? ", HUD readout changing every \(readoutChangeEvery) frames" : ""))
    }

    private func startLoop(_ loop: FrameLoop) throws {
        // This thread is the loop's here: scheduled as the camera schedules it, with the
        // interface painted on the painter's thread as in the camera.
        loop.enterRealtimeScheduling()
        guard loop.startPainter() else { throw BenchError("cannot start the interface painter's thread") }
        if !singleThreadedPicture { loop.startPictureWorker() }
    }

    /// The warm-up and the measured frames, driven as the camera's main loop drives them: the
    /// loop's counters at the end of the warm-up, and the allocations in its turns after it.
    private func runMeasuredFrames(loop: FrameLoop, display: HeadlessDisplay, preview: PreviewSink, status: StatusBoard,
                                   frame: TestFrame, report: inout SensorReport, companions: [BenchCompanion])
        -> (warm: FrameTimeRing, stepAllocations: Int64) {
        let warmUp = FrameBench.warmUp
        // The display's vblanks, and the loop's own wake-up (a painted set of layers).
        var descriptors = [pollfd(fd: display.descriptor, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: loop.wakeDescriptor, events: Int16(POLLIN), revents: 0)]
        var published = 0
        // The loop's counters at the end of the warm-up, copied into storage of their own (a
        // plain assignment would share the ring's arrays, and the loop's next frame would
        // copy them: an allocation counted against the loop).
        var warm = FrameTimeRing()
        var measuring = false
        var stepAllocations: Int64 = 0
        var warmLatency = InputLatencyRing()
        // Each measured frame's latch lead (storage made before the frames: no allocation in them).
        var latchLeads = [Double](repeating: 0, count: frames)
        var latchTimes = [Double](repeating: 0, count: frames)
        var latched = 0, latchedAtFlip = 0
        var inputAllocations: Int64 = 0
        var injection = InputInjection(every: inputEvery, pro: pro, viewfinder: ScreenLayout(width: display.width,
                                                                                             height: display.height).viewfinder)
        while display.flips < frames + warmUp {
            for i in 0..<descriptors.count { descriptors[i].revents = 0 }
            // Until the loop's next moment or the next input's (to the microsecond).
            let now = monotonicSeconds()
            _ = pollWaiting(&descriptors, seconds: min(loop.pollTimeout(at: now), injection.secondsUntilDue(now: now)))
            if descriptors[1].revents & Int16(POLLIN) != 0 { loop.drainWakeUp() }
            if descriptors[0].revents & Int16(POLLIN) != 0 { loop.displayEvents() }
            // An input is followed by the loop's turn at once, as the camera's loop follows
            // libinput's events (a tap's down and up together: timed from its kernel time).
            var injected = false
            while measuring, let event = injection.due(flips: display.flips, now: monotonicSeconds()) {
                let before = reflex_thread_allocations()
                loop.inject(event.event, at: event.time)
                inputAllocations += reflex_thread_allocations() - before
                injected = true
            }
            guard !display.flipPending else {
                if injected {
                    let before = reflex_thread_allocations()
                    loop.step(now: monotonicSeconds())
                    stepAllocations += reflex_thread_allocations() - before
                }
                continue
            }
            // One new sensor frame a vblank. The sensor thread's part (a copy of the frame)
            // happens outside the loop's timing.
            if published <= display.flips {
                if readoutChangeEvery > 0 && published % readoutChangeEvery == 0 {
                    report.iso = report.iso == 100 ? 200 : 100
                    status.post(report)
                }
                // (Stamped now, as the kernel stamps a buffer: the remote's latency counts from it.)
                let sensorFrame = SensorFrame(bytes: UnsafeRawBufferPointer(frame.raw), mode: frame.mode,
                                              sequence: UInt32(published), timestampNanoseconds: Int64(monotonicSeconds() * 1e9),
                                              exposure: frame.exposure, parameters: frame.parameters, sensorZoom: 1)
                preview.deliver(sensorFrame)
                for companion in companions { companion.deliver(sensorFrame) }
                published += 1
                preview.drainWake()
                status.drainWake()
            }
            if display.flips == warmUp && !measuring {
                warm.copy(from: loop.statistics.ring)
                warmLatency.copy(from: loop.statistics.inputLatency)
                measuring = true
                companions.forEach { $0.begin() }
            }
            // The loop's whole turn, not only the frame's render: taking reports, asking the
            // painter, the layout.
            let before = reflex_thread_allocations()
            loop.step(now: monotonicSeconds())
            if measuring { stepAllocations += reflex_thread_allocations() - before }
            if measuring, display.flipPending, display.flips >= latchedAtFlip, let lead = loop.statistics.latchLead {
                latchLeads[latched % latchLeads.count] = lead
                latchTimes[latched % latchTimes.count] = loop.statistics.latchSeconds
                latched += 1
                latchedAtFlip = display.flips + 1
            }
        }
        if latched > 0 {
            let leads = latchLeads.prefix(min(latched, latchLeads.count)).sorted()
            let times = latchTimes.prefix(min(latched, latchTimes.count)).sorted()
            func ms(_ seconds: Double) -> String { Formatting.fixed(seconds * 1000, 2) }
            print("  the frames' latch (the marks and the interface laid over the picture, then queued): "
                  + "took p50 \(ms(times[times.count / 2])) ms, p99 \(ms(times[times.count * 99 / 100])) ms, "
                  + "max \(ms(times.last!)) ms; began p50 \(ms(leads[leads.count / 2])) ms, max \(ms(leads.last!)) ms "
                  + "before its vblank")
        }
        if injection.injected > 0 {
            print("  input to screen, \(injection.injected) \(pro ? "dial detents" : "taps on the picture") injected at "
                  + "every phase of the vblank (kernel-time stamp to the flip showing its effect): "
                  + "\(loop.statistics.inputLatency.summary(since: warmLatency)); target ≤ 18.7 ms (a frame + 2 ms); "
                  + "\(inputAllocations) allocations taking them on the loop's thread")
        }
        return (warm, stepAllocations)
    }

    private func printLoopFigures(_ loop: FrameLoop, warm: FrameTimeRing, stepAllocations: Int64, stealAtStart: Double?) {
        let summary = loop.statistics.ring.summary()
        print("  the loop (\(loop.statistics.scheduling), the picture "
              + (loop.rendersOnTwoCores ? "in bands shared with a second core" : "on the loop's thread alone")
              + "): \(summary.description)")
        print("  allocations in the loop's whole turn (step) after warm-up: \(stepAllocations)")
        print("  frames that showed a change a frame late (its layers not painted in time): "
              + "\(loop.statistics.lateInterfaceFrames); shown after the vblank they were made for: \(loop.statistics.lateFrames)")
        print("  (after \(FrameBench.warmUp) warm-up frames: \(summary.allocations - warm.allocations) allocations in "
              + "\(summary.allocatingFrames - warm.allocatingFrames) frames, "
              + "\(summary.missedVblanks - warm.missedVblanks) missed vblanks)")
        // On a virtual machine the host may stop the CPUs for a while: said, not hidden.
        print("  CPU time the hypervisor took during the run (steal, all CPUs): "
              + HostStealTime.describe(from: stealAtStart, to: HostStealTime.milliseconds()))
    }

    /// References in the same run: the ISP alone into the same panel, and a memcpy of the panel.
    private func printReferenceRows(frame: TestFrame, display: HeadlessDisplay, fontFolder: String) throws {
        let isp = PreviewISP(maximumSourceWidth: 1920, maximumSourceHeight: 1080, maximumOutputWidth: display.width)
        isp.setParameters(frame.parameters, format: frame.layout.format)
        let panel = UnsafeMutablePointer<UInt32>.allocate(capacity: display.width * display.height)
        let other = UnsafeMutablePointer<UInt32>.allocate(capacity: display.width * display.height)
        defer { panel.deallocate(); other.deallocate() }
        let viewfinder = PixelRect(x: 0, y: 0, width: display.width, height: display.height).fitting(sourceWidth: 1920, sourceHeight: 1080)
        let pixels = Double(1920 * 1080)
        print(Row.header)
        print(Row.measure("of the loop's work: the preview ISP alone", pixels: pixels, iterations: 300) {
            isp.renderBayer(frame.raw.baseAddress!, layout: frame.layout, into: panel, outputWidth: display.width,
                            outputHeight: display.height, outputStride: display.width, destination: viewfinder)
        })
        let interface = InterfaceRenderer(layout: ScreenLayout(width: display.width, height: display.height,
                                                              sensorWidth: 1920, sensorHeight: 1080, density: display.density),
                                          fonts: try FontLibrary(folder: fontFolder),
                                          scales: DialScales(CameraModel(settings: settings, limits: .unlimited)))
        interface.update(ViewState(settings: settings))
        let bins = [UInt32](repeating: 100, count: 64)
        print(Row.measure("of the loop's work: the interface's layers alone", pixels: pixels, iterations: 300) {
            bins.withUnsafeBufferPointer { histogram in
                interface.composite(into: panel, stride: display.width,
                                    .init(reveal: pro ? 1 : 0, histogram: histogram), screen: .live)
            }
        })
        print(Row.measure("reference: memcpy of the 1280x800 panel", pixels: pixels, iterations: 300) {
            other.update(from: panel, count: display.width * display.height)
        })
    }
}
