import ReflexCore
import ReflexHardware
import ReflexISP
import ReflexSystem
import ReflexUI
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

    /// Drives `loop` as its thread would: vblanks, painted sets, one grey sensor frame a vblank.
    final class Rig {
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

        /// `patterned`: frames with a different value in every sample (else flat grey).
        /// `gps`: a gpsd client at this port, its status posted to the loop's board.
        init(density: PanelDensity? = nil, patterned: Bool = false, settings: CameraSettings = CameraSettings(),
             gpsdPort: UInt16? = nil) throws {
            display = try HeadlessDisplay(folder: nil, density: density)
            let status = self.status
            gps = gpsdPort.map { GPSDClient(address: GPSDAddress(host: "localhost", port: $0),
                                            post: { status.postGPS($0) }, log: { _ in }) }
            // Unoptimised Swift paints slowly: the loop may wait for the painter up to a second.
            loop = FrameLoop(display: display, preview: preview, status: status, mailbox: nil,
                             fonts: try FontLibrary(folder: InterfacePainterTests.repository + "/Fonts"),
                             model: CameraModel(settings: settings, limits: .unlimited), fNumber: 2.8,
                             paintPatience: 1, gps: gps)
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

        /// One turn of the loop's thread: a poll to the loop's next moment (5 ms at most), its
        /// events, a sensor frame a vblank, and its step; none once `target` frames reached the
        /// screen (nothing left in flight: the next frame rendered is the caller's).
        func turn(until target: Int = .max) {
            var descriptors = [pollfd(fd: display.descriptor, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: loop.wakeDescriptor, events: Int16(POLLIN), revents: 0)]
            _ = pollWaiting(&descriptors, seconds: min(loop.pollTimeout(at: monotonicSeconds()), 0.005))
            if descriptors[1].revents & Int16(POLLIN) != 0 { loop.drainWakeUp() }
            if descriptors[0].revents & Int16(POLLIN) != 0 { loop.displayEvents() }
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
            loop.step(now: monotonicSeconds())
        }

        /// Runs frame by frame until `condition` holds (true) or `seconds` pass (false).
        func run(until condition: () -> Bool, seconds: Double) -> Bool {
            let deadline = monotonicSeconds() + seconds
            while !condition() {
                guard monotonicSeconds() < deadline else { return false }
                run(frames: 1)
            }
            return true
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

    /// An input's wait is measured from its kernel time to the flip that shows its effect.
    @Test func anInputsWaitIsMeasuredToTheFlipThatShowsIt() throws {
        let rig = try Rig()
        #expect(rig.loop.startPainter())
        defer { rig.loop.stop() }
        rig.run(frames: 3)
        let before = rig.topBar()
        // The menu key: the menu's button turns amber (a repaint), a setting-free change.
        let pressed = monotonicSeconds()
        rig.loop.inject(.key(code: KeyCode.menu, pressed: true), at: pressed)
        rig.run(frames: 1)
        while rig.loop.statistics.inputLatency.recorded == 0 && monotonicSeconds() - pressed < 3 { rig.run(frames: 1) }
        let latency = rig.loop.statistics.inputLatency.summary()
        #expect(latency.events == 1)
        #expect(latency.maximum > 0 && latency.maximum < (monotonicSeconds() - pressed) * 1000 + 1)
        #expect(rig.topBar() == before, "the HUD bar itself did not change")
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
        // A few tries, the box moving each time: on a loaded machine the latch may come due
        // between the look and the tap (a frame due then goes out first, without the tap).
        // Drawn with the picture instead of at the latch, the box never makes that flip.
        var shownInThatFlip = false
        for attempt in 0..<5 where !shownInThatFlip {
            // (Apart by more than a double tap, which would return to the whole frame.)
            let apart = monotonicSeconds() + (attempt == 0 ? 0 : 1)
            while monotonicSeconds() < apart { rig.turn() }
            // The picture of the next frame drawn, its latch still to come.
            let deadline = monotonicSeconds() + 5
            while !rig.loop.pictureWaitsForItsLatch && monotonicSeconds() < deadline { rig.turn() }
            try #require(rig.loop.pictureWaitsForItsLatch, "a frame's picture is drawn ahead of its latch")
            let flips = rig.display.flips
            let x = Double(viewfinder.x) + Double(viewfinder.width) * (attempt % 2 == 0 ? 0.3 : 0.7)
            let y = Double(viewfinder.y + viewfinder.height / 2)
            let tapped = monotonicSeconds()
            rig.loop.inject(.touchDown(slot: 0, x: x, y: y), at: tapped)
            rig.loop.inject(.touchUp(slot: 0), at: tapped)
            let box = try #require(rig.loop.shownState.settings.meteringPoint?.box(viewfinder: viewfinder, zoom: 1))
            while rig.display.flips == flips && monotonicSeconds() < deadline { rig.turn() }
            // The flip that followed: the box's left edge drawn over the grey picture.
            let edge = rig.display.frontPixels[(box.y + box.height / 2) * rig.display.width + box.x]
            let inside = rig.display.frontPixels[(box.y + box.height / 2) * rig.display.width + box.x + box.width / 2]
            shownInThatFlip = edge & 0xFF > (inside & 0xFF) + 60
        }
        #expect(shownInThatFlip, "a tap after the picture was drawn showed in that frame")
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
