import Foundation
import CAllocationCounter
import ReflexCore
import ReflexISP
import ReflexSystem
import ReflexUI
import ReflexTestSupport
import Testing

@Suite struct InterfaceTextTests {
    @Test func theHUDShowsWhatTheCameraUsesAndWhatThePhotographerFixed() {
        var state = ViewState(readout: ExposureReadout(iso: 400, shutter: ShutterSpeed(1, 125), fNumberTenths: 28, kelvin: 5200))
        #expect(InterfaceText.hudItems(state).map(\.value) == ["400", "1/125", "f/2.8", "AUTO"])
        state.settings.mode = .pro
        state.settings.iso = .manual(ISOSpeed(1600))
        state.settings.whiteBalance = .preset(.tungsten)
        let items = InterfaceText.hudItems(state)
        #expect(items.map(\.value) == ["1600", "1/125", "f/2.8", "3200K"])
        #expect(items.map(\.manual) == [true, false, false, true])
    }

    @Test func compensationIsShownOnlyWhenItActs() {
        var state = ViewState()
        state.settings.exposureCompensation = ExposureCompensation(thirds: -2)
        #expect(InterfaceText.hudItems(state).contains { $0.label == "EV" && $0.value == "−2/3" })
        state.settings.mode = .pro
        state.settings.iso = .manual(ISOSpeed(200))
        state.settings.shutter = .manual(ShutterSpeed(1, 60))
        #expect(!InterfaceText.hudItems(state).contains { $0.label == "EV" }, "fully manual: nothing to compensate")
    }

    @Test func fNumbersReadAsOnALens() {
        #expect(InterfaceText.fNumber(tenths: 28) == "2.8")
        #expect(InterfaceText.fNumber(tenths: 80) == "8")
        #expect(InterfaceText.fNumber(tenths: 110) == "11")
        #expect(InterfaceText.fNumber(tenths: 0) == "")
    }

    @Test func indicatorsSayWhatMattersAndTheFormatAlways() {
        var state = ViewState(gps: .fix, savingCount: 3, storage: .low(StorageAdvice(level: .low, shotsLeft: 12, format: .raw)))
        state.settings.format = .raw
        let texts = InterfaceText.indicators(state)
        // (The GPS state is an icon beside them, not a word.)
        #expect(texts.map(\.text) == ["Saving 3…", "Low storage · 12 RAW left", "RAW"])
        #expect(texts.map(\.attention) == [false, true, false])
        #expect(InterfaceText.indicators(ViewState()).map(\.text) == ["JPEG"])
        let locked = InterfaceText.indicators(ViewState(storage: .readOnly))
        #expect(locked.map(\.text) == ["Card read-only", "JPEG"] && locked[0].attention)
    }

    @Test func failureScreensHaveTheIssuesWords() {
        #expect(InterfaceText.message(.noCamera)?.title == "No camera found")
        #expect(InterfaceText.message(.reconnecting)?.title == "Camera disconnected — reconnecting")
        #expect(InterfaceText.storageMissing.title == "Storage card missing")
        #expect(InterfaceText.message(.live) == nil)
    }
}

@Suite struct LegibilityTests {
    /// WCAG AA (4.5:1) for the HUD's text even in the worst case: the surface over a white sky.
    @Test func theHUDKeepsAAContrastOverAWhitePicture() {
        let worstBackground = Palette.surface.over(Colour(hex: 0xFFFFFF))
        #expect(Colour.contrast(Palette.text, worstBackground) >= 4.5)
        #expect(Colour.contrast(Palette.secondaryText, worstBackground) >= 4.5)
        #expect(Colour.contrast(Palette.accent, worstBackground) >= 3.0, "the accent marks, large text")
        #expect(Colour.contrast(Palette.onAccent, Palette.accent) >= 4.5)
    }

    @Test func contrastMatchesWCAGsOwnExamples() {
        #expect(abs(Colour.contrast(Colour(hex: 0xFFFFFF), Colour(hex: 0x000000)) - 21) < 0.01)
        #expect(abs(Colour.contrast(Colour(hex: 0x777777), Colour(hex: 0xFFFFFF)) - 4.48) < 0.01)
    }
}

@Suite struct ScreenLayoutTests {
    @Test func theViewfinderIsLetterboxedToTheSensor() {
        #expect(ScreenLayout(width: 1280, height: 800, sensorWidth: 1920, sensorHeight: 1080).viewfinder
                == PixelRect(x: 0, y: 40, width: 1280, height: 720))
        #expect(ScreenLayout(width: 1280, height: 800, sensorWidth: 4, sensorHeight: 3).viewfinder
                == PixelRect(x: 106, y: 0, width: 1067, height: 800))
    }

    @Test func controlsSitInTheThumbZoneAndNothingOverlaps() {
        for (w, h) in [(1280, 800), (800, 480), (1920, 1080)] {
            let layout = ScreenLayout(width: w, height: h)
            let slots = layout.dialSlots
            #expect(slots.count == 4)
            for slot in slots {
                #expect(slot.y + slot.height <= h && slot.y > h / 2, "dials in the bottom half (\(w)x\(h))")
                #expect(slot.x + slot.width <= layout.modeToggle.x, "left of the toggle")
            }
            for (a, b) in zip(slots, slots.dropFirst()) { #expect(a.x + a.width < b.x) }
            #expect(layout.modeToggle.x + layout.modeToggle.width <= w && layout.modeToggle.y + layout.modeToggle.height <= h)
            #expect(layout.histogram.y >= layout.topBar.height)
            // Touch targets stay at least ~44 pt on the 1280x800 design, scaled with the panel.
            #expect(Double(layout.modeToggle.height) >= 44 * layout.scale)
        }
    }

    /// The design is in points: on a panel whose density is known nothing is physically
    /// larger than designed, and the design still fits a dense panel.
    @Test func theLayoutFollowsThePanelsDensity() {
        // A 100 dpi monitor (QEMU's virtual panel says so): the design at 100/160.
        let monitor = ScreenLayout(width: 1280, height: 800, density: PanelDensity(dotsPerInch: 100))
        #expect(monitor.scale == 0.625)
        #expect(monitor.topBar.height == 40 && monitor.modeToggle == PixelRect(x: 1155, y: 745, width: 115, height: 45))
        #expect(monitor.densityKnown && monitor.density.dotsPerInch == 100)
        // A 7-inch camera panel (216 dpi): the design fills it, as without a density.
        let camera = ScreenLayout(width: 1280, height: 800, density: PanelDensity(dotsPerInch: 216))
        let unknown = ScreenLayout(width: 1280, height: 800)
        #expect(camera.scale == 1 && camera.modeToggle == unknown.modeToggle && camera.dialSlots == unknown.dialSlots)
        // Unknown: the density is the one at which the design fills the panel.
        #expect(!unknown.densityKnown && unknown.density.dotsPerInch == 160)
        #expect(ScreenLayout(width: 640, height: 400).density.dotsPerInch == 80)
    }
}

@Suite struct CompositingTests {
    @Test func premultipliedBlendingMatchesTheFormula() {
        var destination: [UInt32] = [0xFF80_4020]
        // 50 % white over (128, 64, 32): 128 + 128·0.5 etc.
        let source: [UInt32] = [0x8080_8080]
        source.withUnsafeBufferPointer { s in
            destination.withUnsafeMutableBufferPointer { d in
                PixelCompositing.blend(s.baseAddress!, sourceStride: 1, width: 1, height: 1, into: d.baseAddress!,
                                       destinationStride: 1, destinationWidth: 1, destinationHeight: 1, x: 0, y: 0, opacity: 256)
            }
        }
        let p = destination[0]
        let (r, g, b) = (Int(p >> 16 & 0xFF), Int(p >> 8 & 0xFF), Int(p & 0xFF))
        #expect(abs(r - (128 + 128 * 127 / 255)) <= 1 && abs(g - (128 + 64 * 127 / 255)) <= 1 && abs(b - (128 + 32 * 127 / 255)) <= 1)
        #expect(p >> 24 == 0xFF)
    }

    @Test func layersAreClippedToTheScreen() {
        var destination = [UInt32](repeating: 0xFF00_0000, count: 16)
        let source = [UInt32](repeating: 0xFFFF_FFFF, count: 16)
        source.withUnsafeBufferPointer { s in
            destination.withUnsafeMutableBufferPointer { d in
                PixelCompositing.blend(s.baseAddress!, sourceStride: 4, width: 4, height: 4, into: d.baseAddress!,
                                       destinationStride: 4, destinationWidth: 4, destinationHeight: 4, x: 2, y: 3, opacity: 256)
            }
        }
        #expect(destination.filter { $0 == 0xFFFF_FFFF }.count == 2, "only the 2x1 corner that lands on screen")
        #expect(destination[14] == 0xFFFF_FFFF && destination[15] == 0xFFFF_FFFF)
    }

    /// The per-frame part of the interface allocates nothing once the layers are drawn.
    @Test func compositingAFrameAllocatesNothing() throws {
        let layout = ScreenLayout(width: 1280, height: 800)
        let fonts = try FontLibrary(folder: GoldenImage.repository + "/Fonts")
        var settings = CameraSettings()
        settings.mode = .pro
        let renderer = InterfaceRenderer(layout: layout, fonts: fonts, scales: DialScales(CameraModel(settings: settings, limits: .unlimited)))
        let state = ViewState(settings: settings)
        renderer.update(state)
        let pixels = UnsafeMutablePointer<UInt32>.allocate(capacity: 1280 * 800)
        defer { pixels.deallocate() }
        pixels.initialize(repeating: 0xFF40_4040, count: 1280 * 800)
        let bins = [UInt32](repeating: 7, count: 64)
        var before: Int64 = 0
        var repaintsBefore = 0
        bins.withUnsafeBufferPointer { histogram in
            for frame in -1..<20 {
                if frame == 0 {  // counted from the second frame: the first fills Swift's runtime caches
                    before = reflex_thread_allocations()
                    repaintsBefore = renderer.repaints
                }
                renderer.update(state)
                let overlay = InterfaceRenderer.FrameOverlay(controlsOpacity: 1 - Double(frame) / 40, reveal: 1,
                                                             histogram: histogram, zebras: true, peaking: true,
                                                             zebraPhase: frame)
                InterfaceRenderer.decoratePicture(pixels, stride: 1280, overlay, screen: .live, viewfinder: renderer.layout.viewfinder)
                InterfaceRenderer.markPicture(pixels, stride: 1280, overlay, screen: .live, viewfinder: renderer.layout.viewfinder)
                renderer.composite(into: pixels, stride: 1280, overlay, screen: .live)
            }
        }
        #expect(reflex_thread_allocations() - before == 0)
        #expect(renderer.repaints == repaintsBefore, "an unchanged state is not redrawn")
    }
}

@Suite struct OverlayPlaneCompositingTests {
    /// On a transparent overlay plane a layer keeps its own (premultiplied) alpha, so the
    /// hardware's blend gives the same picture as blending in software.
    @Test func aLayerOnATransparentPlaneKeepsItsAlpha() {
        var plane: [UInt32] = [0, 0]
        let layer: [UInt32] = [0xB800_0000, 0x8080_8080]  // the HUD's 72 % black; 50 % white
        layer.withUnsafeBufferPointer { s in
            plane.withUnsafeMutableBufferPointer { d in
                PixelCompositing.blend(s.baseAddress!, sourceStride: 2, width: 2, height: 1, into: d.baseAddress!,
                                       destinationStride: 2, destinationWidth: 2, destinationHeight: 1, x: 0, y: 0, opacity: 256)
            }
        }
        #expect(plane == layer)
    }
}
