import CCairo
import ReflexCore

/// Draws the shutter button and, below it, the last photo's thumbnail. The button is a
/// white ring round a white disc, as every camera app draws it; while the half press holds
/// exposure and white balance the ring turns to the accent colour (the lock sign itself is
/// in the top bar).
struct ShutterPainter {
    let layout: ScreenLayout

    /// The canvas covers the button and the thumbnail: this rectangle.
    static func area(_ layout: ScreenLayout) -> PixelRect {
        let left = min(layout.shutterButton.x, layout.thumbnail.x)
        let right = max(layout.shutterButton.x + layout.shutterButton.width, layout.thumbnail.x + layout.thumbnail.width)
        return PixelRect(x: left, y: layout.shutterButton.y, width: right - left,
                         height: layout.thumbnail.y + layout.thumbnail.height - layout.shutterButton.y)
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
        cairo_arc(pen.context, cx, cy, radius - 14 * s, 0, 2 * .pi)
        pen.fill(Palette.text)
        if let photo = state.lastPhoto {
            drawThumbnail(photo, in: layout.thumbnail.relative(to: area), pen: pen)
        }
        canvas.finish()
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
