import ReflexTestSupport
import ReflexCore
import ReflexHardware
import ReflexISP
import ReflexSystem
import ReflexUI
import Synchronization
import Testing
@testable import ReflexRuntime
#if canImport(Glibc)
import Glibc
#endif

/// The realtime loop with its painter thread, driven frame by frame on the headless display:
/// a change on screen shows in the first frame after it, and the loop's thread allocates
/// nothing for it (Cairo runs on the painter's thread).
@Suite("The interface painter")
struct InterfacePainterTests {
    static let repository: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return path
    }()

    /// Drives `loop` as its thread would, on a clock the rig moves: vblanks the rig ticks,
    /// one grey sensor frame a vblank, and the painter's sets waited for before the time
    /// moves on. Whatever the machine's speed, the loop sees the same moments: no test
    /// here depends on how fast the host runs the painter or the picture.
    final class Rig {
        let clock: ManualClock
        let display: HeadlessDisplay
        let preview = PreviewSink()
        let status = StatusBoard()
        let loop: FrameLoop
        let gps: GPSDClient?
        var report = SensorReport()
        /// Whether a sensor frame is published each vblank (false: no camera).
        var publishesFrames = true
        private var published = 0
        private let frame: [UInt8]
        private let format = RawFormat(cfa: .rggb, bitsPerSample: 10, packing: .unpacked16)
        /// The next vblank on the rig's clock.
        private(set) var nextVblank: Double
        /// Longer than a frame: a latch whose layers are still being painted waits for them
        /// (on the rig's clock, which stands still while the painter works), never goes out
        /// with the layers before, however slowly the host runs the painter.
        static let paintPatience = 1.0

        /// `patterned`: frames with a different value in every sample (else flat grey).
        /// `gps`: a gpsd client at this port, its status posted to the loop's board.
        /// `analysis`: auto-zoom's subject, from an analysis the test feeds.
        /// `clock`: the rig's time (given: one a reviewer made before the rig runs on too).
        init(density: PanelDensity? = nil, patterned: Bool = false, settings: CameraSettings = CameraSettings(),
             gpsdPort: UInt16? = nil, analysis: SubjectAnalysis? = nil, reviewer: Reviewer? = nil,
             clock: ManualClock = ManualClock()) throws {
            self.clock = clock
            display = try HeadlessDisplay(folder: nil, density: density, vblanks: .ticked)
            nextVblank = clock.now + 1 / Double(display.refreshRate)
            let status = self.status
            gps = gpsdPort.map { GPSDClient(address: GPSDAddress(host: "localhost", port: $0),
                                            post: { status.postGPS($0) }, log: { _ in }) }
            loop = FrameLoop(display: display, preview: preview, status: status, mailbox: nil,
                             fonts: try FontLibrary(folder: InterfacePainterTests.repository + "/Fonts"),
                             model: CameraModel(settings: settings, limits: .unlimited), fNumber: 2.8,
                             paintPatience: Rig.paintPatience, gps: gps, analysis: analysis, reviewer: reviewer,
                             clock: .manual(clock))
            frame = patterned ? patternedFrame(width: 64, height: 48) : flatGrey(width: 64, height: 48)
            report.status = .streaming
            report.width = 64
            report.height = 48
            report.iso = 100
            status.post(report)
        }

        /// Runs until `count` more frames have reached the screen (and none is queued).
        func run(frames count: Int) {
            let target = display.flips + count
            while display.flips < target { turn(until: target) }
        }

        /// One turn of the loop's thread: the painter let finish what it was asked (the
        /// loop's thread would wait for it in real time; here its time is the rig's), the
        /// clock moved to the loop's next moment or the next vblank (ticked), the loop's
        /// events, a sensor frame a vblank, and its step; none once `target` frames
        /// reached the screen (nothing left in flight: the next frame rendered is the caller's).
        func turn(until target: Int = .max) {
            // A painter that was still at work took no time on the rig's clock: the loop,
            // waiting for its layers, is turned again at the same moment.
            let painted = waitForThePainter()
            let now = clock.now
            let moment = painted ? now : min(now + loop.pollTimeout(at: now), nextVblank)
            clock.advance(to: max(now, moment))
            if clock.now >= nextVblank {
                display.tickVblank()
                nextVblank += 1 / Double(display.refreshRate)
            }
            loop.drainWakeUp()
            loop.displayEvents()
            guard display.flips < target else { return }
            if publishesFrames && !display.flipPending && published <= display.flips {
                frame.withUnsafeBytes { bytes in
                    preview.deliver(SensorFrame(testBytes: bytes, width: 64, height: 48, bytesPerLine: 128, format: format,
                                                parameters: ISPParameters(blackLevel: 64, whiteLevel: 1023),
                                                sequence: UInt32(published)))
                }
                published += 1
                preview.drainWake()
            }
            loop.step(now: clock.now)
        }

        /// The painter's thread paints (and review's reads the card) at the host's speed: the
        /// rig's time stands still until they have (a minute at most: a thread that never
        /// answers fails the test). True if it had to wait.
        private func waitForThePainter() -> Bool {
            func busy() -> Bool { loop.interfaceIsBeingPainted || loop.reviewIsBusy }
            guard busy() else { return false }
            let patience = monotonicSeconds() + 60
            while busy() && monotonicSeconds() < patience { usleep(200) }
            return true
        }

        /// Runs frame by frame until `condition` holds (true) or `frames` frames pass (false).
        func run(until condition: () -> Bool, frames limit: Int) -> Bool {
            for _ in 0..<limit {
                if condition() { return true }
                run(frames: 1)
            }
            return condition()
        }

        /// The top bar of what the panel shows now.
        func topBar() -> [UInt32] {
            let layout = ScreenLayout(width: display.width, height: display.height)
            var pixels: [UInt32] = []
            for y in layout.topBar.y..<layout.topBar.y + layout.topBar.height {
                let row = display.frontPixels + y * display.width
                pixels += UnsafeBufferPointer(start: row + layout.topBar.x, count: layout.topBar.width)
            }
            return pixels
        }
    }

    @Test func aNewReadoutIsOnTheNextFrameAndTheLoopAllocatesNothingForIt() throws {
        let rig = try Rig()
        #expect(rig.loop.startPainter())
        defer { rig.loop.stop() }
        rig.run(frames: 5)
        let before = rig.topBar()
        // The frames' own allocations (the render, the blend, the commit). The loop's whole
        // turn is counted by `reflex bench frame`, on the release build: unoptimised, taking a
        // report and asking the painter allocate in unspecialised generics.
        let allocationsBefore = rig.loop.statistics.ring.summary().allocations
        let lateBefore = rig.loop.statistics.lateInterfaceFrames

        rig.report.iso = 800
        rig.status.post(rig.report)
        rig.run(frames: 1)
        let after = rig.topBar()
        let changed = after != before
        #expect(changed, "the first frame after the change shows the new ISO")
        rig.run(frames: 3)
        let unchanged = rig.topBar() == after
        #expect(unchanged, "and the frames after it the same")
        #expect(rig.loop.statistics.ring.summary().allocations == allocationsBefore,
                "the loop's frames allocated while the HUD changed")
        #expect(rig.loop.statistics.lateInterfaceFrames == lateBefore)
    }

    /// Auto-zoom on: the loop frames the analysis's subject frame by frame (the zoom label
    /// rising to it), and its frames allocate nothing for it.
    @Test func autoZoomFramesTheSubjectWithoutAllocatingOnTheLoop() throws {
        var settings = CameraSettings()
        settings.autoZoom = true
        // A camera with the detector (opened, so auto-zoom is offered); the test gives it what it sees.
        let analysis = SubjectAnalysis(modelPath: InterfacePainterTests.repository + "/Models/ssdlite-mobilenet-v2-persons.pb",
                                       log: { _ in })
        analysis.openDetector()
        let rig = try Rig(settings: settings, analysis: analysis)
        #expect(rig.loop.startPainter())
        defer { rig.loop.stop() }
        // What the analysis thread would do: a person a tenth of the picture high, right of
        // the middle, seen at each frame's time.
        func see() {
            let person = PersonDetection(box: FractionalBox(centreX: 0.65, centreY: 0.5, width: 0.04, height: 0.1), confidence: 0.9)
            analysis.take([person], at: rig.clock.now)
            analysis.publish(at: rig.clock.now)
        }
        for _ in 0..<30 { see(); rig.run(frames: 1) }
        let allocationsBefore = rig.loop.statistics.ring.summary().allocations
        let framed = rig.run(until: { see(); return rig.loop.shownState.zoomTenths >= 47 }, frames: 600)
        #expect(framed, "framed at medium: 5x, shown \(rig.loop.shownState.zoomTenths), \(rig.loop.shownState.autoZoom)")
        #expect(rig.loop.statistics.ring.summary().allocations == allocationsBefore, "the loop's frames allocated for auto-zoom")
    }

    /// An input's wait is measured from its kernel time to the flip that shows its effect:
    /// on the rig's clock, a key pressed just after a vblank shows at the next one but one
    /// at the latest (the frame under way may have been latched already).
    @Test func anInputsWaitIsMeasuredToTheFlipThatShowsIt() throws {
        let rig = try Rig()
        #expect(rig.loop.startPainter())
        defer { rig.loop.stop() }
        rig.run(frames: 3)
        let before = rig.topBar()
        // The menu key: the menu's button turns amber (a repaint), a setting-free change.
        let pressed = rig.clock.now
        rig.loop.inject(.key(code: KeyCode.menu, pressed: true), at: pressed)
        #expect(rig.run(until: { rig.loop.statistics.inputLatency.recorded > 0 }, frames: 3))
        let latency = rig.loop.statistics.inputLatency.summary()
        let interval = 1000 / Double(rig.display.refreshRate)
        #expect(latency.events == 1)
        #expect(latency.maximum > 0 && latency.maximum <= 2 * interval + 0.001,
                "shown \(latency.maximum) ms after the press, \(((rig.clock.now - pressed) * 1000)) ms on the rig's clock")
        #expect(rig.topBar() == before, "the HUD bar itself did not change")
    }

    /// Input posted from another thread (the soak's photographer) is taken on the loop's
    /// thread at its next wake-up, in order, and shows like a turn of the board's dial.
    @Test func inputPostedFromAnotherThreadIsTakenAtTheLoopsNextTurn() throws {
        var pro = CameraSettings()
        pro.mode = .pro
        let rig = try Rig(settings: pro)
        #expect(rig.loop.startPainter())
        defer { rig.loop.stop() }
        rig.run(frames: 3)
        let before = rig.loop.shownState.settings
        let loop = rig.loop, at = rig.clock.now
        let accepted = Atomic<Int>(0)
        let poster = WorkerThread(name: "test-poster")
        #expect(poster.start { for _ in 0..<3 where loop.post(.wheel(wheel: 0, v120: 120), at: at) { accepted.add(1, ordering: .relaxed) } })
        poster.stop()
        #expect(accepted.load(ordering: .relaxed) == 3)
        #expect(rig.loop.shownState.settings == before, "nothing is taken before the loop's turn")
        rig.run(frames: 2)
        let turned = rig.loop.shownState.settings
        #expect(turned != before, "three detents of the selected dial changed a setting")
        // The same three detents through the loop's own input: the same settings.
        let other = try Rig(settings: pro)
        #expect(other.loop.startPainter())
        defer { other.loop.stop() }
        other.run(frames: 3)
        for _ in 0..<3 { other.loop.inject(.wheel(wheel: 0, v120: 120), at: at) }
        other.run(frames: 2)
        #expect(other.loop.shownState.settings == turned)
    }

    /// A frame is made in two parts: its picture early, its latch (the marks and the layers
    /// laid over it, then queued) a millisecond or so before the vblank. A tap that comes
    /// after the picture is drawn moves the metering box in that same frame.
    @Test func aTapAfterThePictureIsDrawnShowsAtThatVblank() throws {
        let rig = try Rig()
        #expect(rig.loop.startPainter())
        defer { rig.loop.stop() }
        rig.run(frames: 30)
        // (The headless display has vblanks: each frame is latched for one.)
        _ = try #require(rig.loop.statistics.latchLead, "no vblank aimed at")
        let viewfinder = ScreenLayout(width: rig.display.width, height: rig.display.height, sensorWidth: 64,
                                      sensorHeight: 48).viewfinder
        // The picture of the next frame drawn, its latch still to come (within a frame).
        var turns = 0
        while !rig.loop.pictureWaitsForItsLatch && turns < 100 { rig.turn(); turns += 1 }
        try #require(rig.loop.pictureWaitsForItsLatch, "a frame's picture is drawn ahead of its latch")
        let flips = rig.display.flips, vblank = rig.nextVblank
        let x = Double(viewfinder.x) + Double(viewfinder.width) * 0.3
        let y = Double(viewfinder.y + viewfinder.height / 2)
        rig.loop.inject(.touchDown(slot: 0, x: x, y: y), at: rig.clock.now)
        rig.loop.inject(.touchUp(slot: 0), at: rig.clock.now)
        let box = try #require(rig.loop.shownState.settings.meteringPoint?.box(viewfinder: viewfinder, zoom: 1))
        while rig.display.flips == flips { rig.turn() }
        #expect(rig.clock.now == vblank, "the frame went out at the vblank its picture was drawn for")
        // The box's left edge drawn over the grey picture in that flip. Drawn with the
        // picture instead of at the latch, it would be missing here.
        let edge = rig.display.frontPixels[(box.y + box.height / 2) * rig.display.width + box.x]
        let inside = rig.display.frontPixels[(box.y + box.height / 2) * rig.display.width + box.x + box.width / 2]
        #expect(edge & 0xFF > (inside & 0xFF) + 60, "a tap after the picture was drawn showed in that frame")
    }

    /// The panel's density reaches the layout the loop draws: on a 100 dpi panel the HUD bar
    /// is 40 px high, not the design's 64 (the same rig at an unknown density draws 64).
    @Test(arguments: [(PanelDensity?.none, 64), (PanelDensity(dotsPerInch: 100), 40)])
    func theHUDIsDrawnAtThePanelsDensity(_ density: PanelDensity?, barHeight: Int) throws {
        let rig = try Rig(density: density)
        #expect(rig.loop.startPainter())
        defer { rig.loop.stop() }
        rig.run(frames: 3)
        // The grey picture is darkened by the HUD bar down to its edge, and not below it.
        func level(_ y: Int) -> UInt32 { rig.display.frontPixels[y * rig.display.width + 640] & 0xFF }
        let picture = level(barHeight + 4), underBar = level(barHeight - 4)
        #expect(underBar * 2 < picture, "row \(barHeight - 4) is \(underBar), row \(barHeight + 4) is \(picture)")
    }

    /// With a second core, the loop and a worker render bands of the picture: the panel shows
    /// exactly what the loop alone would have drawn.
    @Test func thePictureOnTwoCoresIsThePictureDrawnWhole() throws {
        func panel(onTwoCores: Bool) throws -> [UInt32] {
            let rig = try Rig(patterned: true)
            #expect(rig.loop.startPainter())
            if onTwoCores { rig.loop.startPictureWorker() }
            defer { rig.loop.stop() }
            #expect(rig.loop.rendersOnTwoCores == onTwoCores || !PictureWorker.isUseful)
            rig.run(frames: 4)
            return Array(UnsafeBufferPointer(start: rig.display.frontPixels, count: rig.display.width * rig.display.height))
        }
        let whole = try panel(onTwoCores: false), banded = try panel(onTwoCores: true)
        let same = whole == banded
        #expect(same)
        // (And the picture is there: the middle of the lower half is not the letterbox's black.)
        #expect(banded[600 * 1280 + 640] & 0xFF_FFFF != 0)
    }

    /// Without a camera no frame ever comes: the message screen is presented when the painter
    /// has painted it, and comes back when the camera does.
    @Test func withoutFramesTheFailureScreenIsShownWhenPainted() throws {
        let rig = try Rig()
        #expect(rig.loop.startPainter())
        defer { rig.loop.stop() }
        rig.publishesFrames = false
        rig.report.status = .noCamera
        rig.status.post(rig.report)
        rig.run(frames: 1)
        // The failure screens' near-black, not the empty panel's black.
        let corner = rig.display.frontPixels[20 * rig.display.width + 20] & 0xFF_FFFF
        #expect(corner == 0x0F_1012, "the corner is \(String(corner, radix: 16))")
    }
}

/// A 16-bit RGGB frame whose samples rise across and down (10-bit values).
private func patternedFrame(width: Int, height: Int) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: width * height * 2)
    for y in 0..<height {
        for x in 0..<width {
            let value = UInt16(64 + (x * 13 + y * 7 + (x * y) % 11) % 900)
            bytes[(y * width + x) * 2] = UInt8(value & 0xFF)
            bytes[(y * width + x) * 2 + 1] = UInt8(value >> 8)
        }
    }
    return bytes
}

/// A 16-bit RGGB frame of mid grey.
private func flatGrey(width: Int, height: Int) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: width * height * 2)
    for i in stride(from: 0, to: bytes.count, by: 2) { bytes[i] = 0x00; bytes[i + 1] = 0x02 }  // 512
    return bytes
}
