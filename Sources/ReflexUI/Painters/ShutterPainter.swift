import CCairo
import ReflexCore

/// Draws the shutter button, the Photo/Video switch above it and, below it, the last photo's
/// thumbnail. The button is a white ring round a white disc, as every camera app draws it;
/// while the half press holds exposure and white balance the ring turns to the accent colour
/// (the lock sign itself is in the top bar). In Video the disc is red (record), and while a
/// movie records it becomes a red square (stop).
struct ShutterPainter {
    let layout: ScreenLayout

    /// The canvas covers the switch, the button and the thumbnail: this rectangle.
    static func area(_ layout: ScreenLayout) -> PixelRect {
        let parts = [layout.captureToggle, layout.shutterButton, layout.thumbnail]
        let left = parts.map(\.x).min()!, right = parts.map { $0.x + $0.width }.max()!
        let top = parts.map(\.y).min()!, bottom = parts.map { $0.y + $0.height }.max()!
        return PixelRect(x: left, y: top, width: right - left, height: bottom - top)
    }

    func paint(_ state: ViewState, on canvas: CairoCanvas, fonts: FontLibrary) {
        canvas.clear()
        let pen = Pen(canvas, fonts: fonts)
        let s = layout.scale
        let area = ShutterPainter.area(layout)
        let button = layout.shutterButton.relative(to: area)
        let radius = Double(button.width) / 2
        let cx = Double(button.x) + radius, cy = Double(button.y) + radius
        cairo_arc(pen.context, cx, cy, radius - 3 * s, 0, 2 * .pi)
        pen.stroke(state.exposureLocked ? Palette.accent : Palette.text, width: 6 * s)
        if state.recording != nil {
            let side = radius * 0.8
            pen.roundedRect(cx - side / 2, cy - side / 2, side, side, radius: 8 * s)
            pen.fill(Palette.recording)
        } else {
            cairo_arc(pen.context, cx, cy, radius - 14 * s, 0, 2 * .pi)
            pen.fill(state.settings.capture == .video ? Palette.recording : Palette.text)
        }
        drawCaptureToggle(state.settings.capture, in: layout.captureToggle.relative(to: area), pen: pen)
        if let photo = state.lastPhoto {
            drawThumbnail(photo, in: layout.thumbnail.relative(to: area), pen: pen)
        }
        canvas.finish()
    }

    /// Photo | Video, the active one filled.
    private func drawCaptureToggle(_ kind: CaptureKind, in frame: PixelRect, pen: Pen) {
        let s = layout.scale
        let x = Double(frame.x), y = Double(frame.y), w = Double(frame.width), h = Double(frame.height)
        pen.roundedRect(x, y, w, h, radius: h / 2)
        pen.fill(Palette.surface)
        let inset = 4 * s, half = (w - 2 * inset) / 2
        for (index, segment) in CaptureKind.allCases.enumerated() {
            let left = x + inset + Double(index) * half
            let active = segment == kind
            if active {
                pen.roundedRect(left, y + inset, half, h - 2 * inset, radius: (h - 2 * inset) / 2)
                pen.fill(Palette.text)
            }
            pen.font(.title, size: 15 * s)
            pen.text(segment == .photo ? "PHOTO" : "VIDEO", x: left + half / 2, middleY: y + h / 2, align: .centre,
                     active ? Palette.onAccent : Palette.secondaryText)
        }
    }

    /// The photo fitted into `frame` (right-aligned), with a thin white border.
    private func drawThumbnail(_ photo: PhotoThumbnail, in frame: PixelRect, pen: Pen) {
        guard photo.width > 0, photo.height > 0,
              let image = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(photo.width), Int32(photo.height)) else { return }
        defer { cairo_surface_destroy(image) }
        cairo_surface_flush(image)
        let stride = Int(cairo_image_surface_get_stride(image))
        let pixels = cairo_image_surface_get_data(image)!
        photo.rgb.withUnsafeBufferPointer { rgb in
            for y in 0..<photo.height {
                let row = UnsafeMutableRawPointer(pixels + y * stride).assumingMemoryBound(to: UInt32.self)
                for x in 0..<photo.width {
                    let i = (y * photo.width + x) * 3
                    row[x] = UInt32(rgb[i]) << 16 | UInt32(rgb[i + 1]) << 8 | UInt32(rgb[i + 2])
                }
            }
        }
        cairo_surface_mark_dirty(image)
        let scale = min(Double(frame.width) / Double(photo.width), Double(frame.height) / Double(photo.height))
        let w = Double(photo.width) * scale, h = Double(photo.height) * scale
        let x = Double(frame.x + frame.width) - w, y = Double(frame.y) + (Double(frame.height) - h) / 2
        let context = pen.context
        cairo_save(context)
        cairo_translate(context, x, y)
        cairo_scale(context, scale, scale)
        cairo_set_source_surface(context, image, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(context), CAIRO_FILTER_GOOD)
        cairo_paint(context)
        cairo_restore(context)
        cairo_rectangle(context, x, y, w, h)
        pen.stroke(Palette.text, width: 2 * layout.scale)
    }
}
