import ReflexCore
import ReflexTestSupport
import Testing
@testable import ReflexUI

/// A detent repaints one dial and one cell of the HUD, not the panel and the bar (the
/// painter's time is part of the wait from input to screen): what it paints must be exactly
/// what painting everything again would show.
@Suite struct PartialRepaintTests {
    static let width = 1280, height = 800

    /// What `states`, applied in turn to one renderer, show composited over a grey picture.
    static func screen(after states: [ViewState], settings: CameraSettings) throws -> [UInt32] {
        let layout = ScreenLayout(width: width, height: height, sensorWidth: 1920, sensorHeight: 1080)
        let renderer = InterfaceRenderer(layout: layout, fonts: try FontLibrary(folder: GoldenImage.repository + "/Fonts"),
                                         scales: DialScales(CameraModel(settings: settings, limits: .unlimited)))
        for state in states { renderer.update(state) }
        var pixels = [UInt32](repeating: 0xFF40_5060, count: width * height)
        pixels.withUnsafeMutableBufferPointer { buffer in
            renderer.composite(into: buffer.baseAddress!, stride: width,
                               InterfaceRenderer.FrameOverlay(controlsOpacity: 1, reveal: 1), screen: .live)
        }
        return pixels
    }

    static func proState(iso: Int, shutter: ShutterSpeed, readoutISO: Int = 200, notice: String? = nil) -> ViewState {
        var settings = CameraSettings()
        settings.mode = .pro
        settings.iso = .manual(ISOSpeed(iso))
        settings.shutter = .manual(shutter)
        var state = ViewState(settings: settings)
        state.readout = ExposureReadout(iso: readoutISO, shutter: shutter, fNumberTenths: 28, kelvin: 5200)
        state.notice = notice
        return state
    }

    @Test func aDetentsRepaintIsWhatAFullRepaintShows() throws {
        let first = Self.proState(iso: 400, shutter: ShutterSpeed(1, 125))
        let turned = Self.proState(iso: 800, shutter: ShutterSpeed(1, 125))
        let shutterTurned = Self.proState(iso: 800, shutter: ShutterSpeed(1, 250))
        let stepwise = try Self.screen(after: [first, turned, shutterTurned], settings: first.settings)
        let atOnce = try Self.screen(after: [shutterTurned], settings: first.settings)
        let differing = zip(stepwise, atOnce).filter { $0 != $1 }.count
        #expect(differing == 0, "\(differing) pixels differ between the dial repainted alone and the panel repainted")
        // And the repaint did change the screen (the test would pass on a renderer that never repaints).
        let before = try Self.screen(after: [first], settings: first.settings)
        #expect(before != atOnce)
    }

    @Test func aNewIndicatorRepaintsTheWholeBar() throws {
        let first = Self.proState(iso: 400, shutter: ShutterSpeed(1, 125))
        let noticed = Self.proState(iso: 800, shutter: ShutterSpeed(1, 125), notice: "ISO 800 · this lens's limit")
        let stepwise = try Self.screen(after: [first, noticed], settings: first.settings)
        let atOnce = try Self.screen(after: [noticed], settings: first.settings)
        #expect(stepwise == atOnce)
    }

    @Test func theWhiteBalanceRowComesAndGoesWhole() throws {
        var wb = Self.proState(iso: 400, shutter: ShutterSpeed(1, 125))
        wb.settings.selectedDial = .whiteBalance
        let back = Self.proState(iso: 400, shutter: ShutterSpeed(1, 125))
        let stepwise = try Self.screen(after: [back, wb, back], settings: back.settings)
        let atOnce = try Self.screen(after: [back], settings: back.settings)
        #expect(stepwise == atOnce)
    }
}

@Suite struct FourPixelBlendTests {
    /// Four pixels at a time give what one at a time gives, for every kind of pixel and any
    /// width (the rows' ends are blended one by one), at full and partial opacity.
    @Test(arguments: [256, 180, 77])
    func fourAtATimeIsOneAtATime(opacity: Int) {
        var random = SystemRandomNumberGenerator()
        let width = 23, height = 5
        let source: [UInt32] = (0..<width * height).map { index in
            switch index % 5 {
            case 0: return 0  // transparent
            case 1: return 0xFF00_0000 | UInt32.random(in: 0...0xFF_FFFF, using: &random)  // opaque
            default:
                // Premultiplied: no channel above alpha.
                let alpha = UInt32.random(in: 1...254, using: &random)
                return alpha << 24 | UInt32.random(in: 0...alpha, using: &random) << 16
                    | UInt32.random(in: 0...alpha, using: &random) << 8 | UInt32.random(in: 0...alpha, using: &random)
            }
        }
        let picture: [UInt32] = (0..<width * height).map { _ in 0xFF00_0000 | UInt32.random(in: 0...0xFF_FFFF, using: &random) }
        var blended = picture
        source.withUnsafeBufferPointer { s in
            blended.withUnsafeMutableBufferPointer { d in
                PixelCompositing.blend(s.baseAddress!, sourceStride: width, width: width, height: height, into: d.baseAddress!,
                                       destinationStride: width, destinationWidth: width, destinationHeight: height,
                                       x: 0, y: 0, opacity: opacity)
            }
        }
        let expected: [UInt32] = zip(source, picture).map { pixel, under in
            guard pixel != 0 else { return under }
            let scaled = opacity < 256 ? PixelCompositing.scale(pixel, UInt32(opacity)) : pixel
            return scaled >> 24 == 255 ? scaled : PixelCompositing.over(scaled, under)
        }
        #expect(blended == expected)
    }
}

@Suite struct PartialRepaintReachTests {
    /// A cell repainted alone must not reach the chips at the right: with a long notice and
    /// "Saving" the zoom's cell would, and the bar is then painted whole.
    @Test func aCellThatReachesTheChipsRepaintsTheBar() throws {
        func state(zoomTenths: Int) -> ViewState {
            var state = PartialRepaintTests.proState(iso: 800, shutter: ShutterSpeed(1, 125),
                                                     notice: "ISO 6400 → 3200, 1/8000 → 1/4000 · this lens's limit")
            state.savingCount = 12
            state.zoomTenths = zoomTenths
            return state
        }
        let settings = state(zoomTenths: 15).settings
        let stepwise = try PartialRepaintTests.screen(after: [state(zoomTenths: 15), state(zoomTenths: 20)], settings: settings)
        let atOnce = try PartialRepaintTests.screen(after: [state(zoomTenths: 20)], settings: settings)
        #expect(stepwise == atOnce)
    }
}
