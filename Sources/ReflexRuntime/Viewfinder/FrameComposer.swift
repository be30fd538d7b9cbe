import ReflexCore
import ReflexHardware
import ReflexISP
import ReflexUI

/// Makes the frames the realtime loop shows, in the display's buffers: the sensor's picture
/// rendered by the preview ISP (in bands on two cores where the board has them), the marks
/// over it, and the interface's painted layers blended on top — or, with an overlay plane,
/// redrawn there only when they changed. Its timing is the loop's; this only draws.
final class FrameComposer {
    private let display: DisplayOutput
    /// Renders bands of each frame's picture on a second core, beside the loop.
    let pictureWorker = PictureWorker()
    private var isp: PreviewISP?
    /// The screen's layout for the sensor's aspect (the viewfinder's place).
    private var layout: ScreenLayout?
    /// What the overlay plane shows (when there is one), and whether it must be drawn again
    /// (a new layout, a new histogram).
    private var overlayGeneration: Int?
    private var overlayStale = true

    init(display: DisplayOutput) { self.display = display }

    /// The overlay plane must be drawn again (a new histogram).
    func overlayChanged() { overlayStale = true }

    /// The layout for a picture of `sourceWidth` by `sourceHeight` (made again only when that
    /// changes).
    func layout(sourceWidth: Int, sourceHeight: Int) -> ScreenLayout {
        let viewfinder = PixelRect(x: 0, y: 0, width: display.width, height: display.height)
            .fitting(sourceWidth: sourceWidth, sourceHeight: sourceHeight)
        if let layout, layout.viewfinder == viewfinder { return layout }
        let made = ScreenLayout(width: display.width, height: display.height, sensorWidth: sourceWidth, sensorHeight: sourceHeight,
                                density: display.density)
        layout = made
        overlayStale = true
        return made
    }

    /// Draws `frame`'s picture (with its peaking and zebras), zoomed by `zoom`, into the
    /// display's back buffer; black while the screen is not live; in review, `review`'s
    /// picture instead (black until it comes). False if the display refused.
    func drawPicture(_ frame: PreviewFrame?, review: ReviewFrame?, model: ScreenModel, layout: ScreenLayout, framing: Framing,
                     now: Double) -> Bool {
        if let shown = model.state.review {
            // The clipped highlights blink four times a second in the Info view.
            let blink = shown.histogramShown && Int(now * ReviewBlink.perSecond) % 2 == 0
            return drawReview(review, blinkClipped: blink)
        }
        if let frame, isp == nil || isp!.maximumSourceWidth < frame.sensorWidth || isp!.maximumSourceHeight < frame.sensorHeight {
            isp = PreviewISP(maximumSourceWidth: frame.sensorWidth, maximumSourceHeight: frame.sensorHeight,
                             maximumOutputWidth: display.width)
        }
        let overlay = model.frameOverlay(now: now, layout: layout, shown: framing)
        let screen = model.state.screen
        do {
            return try display.prepare { pixels, stride throws(DisplayError) in
                if screen == .live, let frame, let isp, frame.bytes != nil {
                    renderPicture(frame, isp: isp, into: pixels, stride: stride, viewfinder: layout.viewfinder, framing: framing)
                } else {
                    for row in 0..<display.height { (pixels + row * stride).update(repeating: 0xFF00_0000, count: display.width) }
                }
                InterfaceRenderer.decoratePicture(pixels, stride: stride, overlay, screen: screen, viewfinder: layout.viewfinder)
            }
        } catch {
            return false
        }
    }

    /// Review's picture, copied as the review thread laid it out for the panel.
    private func drawReview(_ review: ReviewFrame?, blinkClipped: Bool) -> Bool {
        do {
            return try display.prepare { pixels, stride throws(DisplayError) in
                guard let review, review.width == display.width, review.height == display.height else {
                    for row in 0..<display.height { (pixels + row * stride).update(repeating: 0xFF00_0000, count: display.width) }
                    return
                }
                review.pixels.withUnsafeBufferPointer { source in
                    for row in 0..<display.height {
                        (pixels + row * stride).update(from: source.baseAddress! + row * review.width, count: review.width)
                    }
                }
                if blinkClipped { ReviewBlink.mark(review, in: pixels, stride: stride) }
            }
        } catch {
            return false
        }
    }

    /// Lays the marks and `layers` (nil until the painter's first set: the picture alone)
    /// over the drawn picture and queues the frame; false if the display refused it.
    func queue(_ picture: PreparedPicture, layers: InterfacePainter.PaintedLayers?, model: ScreenModel,
               showHistogram: Bool, now: Double) -> Bool {
        let overlay = model.frameOverlay(now: now, layout: picture.layout, shown: picture.framing)
        // (Review's picture has none of the viewfinder's marks.)
        let screen = model.state.review == nil ? model.state.screen : .noCamera
        // With an overlay plane the interface is redrawn only when it changed; the picture
        // alone goes to the primary plane every frame.
        let useOverlay = display.hasOverlay
        let updateOverlay = useOverlay && (overlayStale || layers?.generation != overlayGeneration || model.isAnimating(at: now))
        let presented: Bool
        do {
            presented = try display.queue({ pixels, stride in
                InterfaceRenderer.markPicture(pixels, stride: stride, overlay, screen: screen, viewfinder: picture.layout.viewfinder)
                if !useOverlay, let layers {
                    composite(layers, into: pixels, stride: stride, overlay, histogram: showHistogram ? model.histogram : nil,
                              screen: screen)
                }
            }, updatingOverlay: updateOverlay, overlay: { pixels, stride in
                for row in 0..<display.height { (pixels + row * stride).update(repeating: 0, count: display.width) }
                if let layers {
                    composite(layers, into: pixels, stride: stride, overlay, histogram: showHistogram ? model.histogram : nil,
                              screen: screen)
                }
            })
        } catch {
            return false
        }
        if presented && updateOverlay {
            overlayGeneration = layers?.generation
            overlayStale = false
        }
        return presented
    }

    private func composite(_ layers: InterfacePainter.PaintedLayers, into pixels: UnsafeMutablePointer<UInt32>, stride: Int,
                           _ overlay: InterfaceRenderer.FrameOverlay, histogram: [UInt32]?, screen: CameraScreen) {
        func blend(_ bins: UnsafeBufferPointer<UInt32>?) {
            var frameOverlay = overlay
            frameOverlay.histogram = bins
            // The screen the layers were painted for: a failure screen's message comes with them.
            layers.renderer!.composite(into: pixels, stride: stride, frameOverlay, screen: layers.state?.screen ?? screen)
        }
        if let histogram { histogram.withUnsafeBufferPointer { blend($0) } } else { blend(nil) }
    }

    private func renderPicture(_ frame: PreviewFrame, isp: PreviewISP, into pixels: UnsafeMutablePointer<UInt32>,
                               stride: Int, viewfinder: PixelRect, framing: Framing) {
        // Digital zoom, for what the camera's own zoom did not do in this frame: the framing's
        // crop (the middle, or where auto-zoom moved it), cropped by the ISP and scaled up.
        // (sensorZoom counts the lens too: an ultra-wide's frame is 0.5.)
        let crop = framing.crop(inFrameWidth: frame.width, height: frame.height, frameZoom: frame.sensorZoom)
        pictureWorker.render(frame, with: isp, into: pixels, stride: stride, outputWidth: display.width,
                             outputHeight: display.height, viewfinder: viewfinder, crop: crop)
    }
}
