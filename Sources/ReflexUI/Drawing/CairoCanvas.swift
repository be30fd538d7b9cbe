import CCairo
import ReflexCore

/// A transparent ARGB32 (premultiplied) Cairo surface with its drawing context, made once
/// and redrawn in place: a layer of the interface.
final class CairoCanvas {
    let width: Int
    let height: Int
    let surface: OpaquePointer
    let context: OpaquePointer

    init(width: Int, height: Int) {
        self.width = max(width, 1)
        self.height = max(height, 1)
        surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(self.width), Int32(self.height))
        // Cairo returns an error surface rather than nil; without memory for a layer there is
        // no interface to draw, which is not a state the camera can run on.
        precondition(cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, "cannot allocate a \(width)x\(height) layer")
        context = cairo_create(surface)
        // Greyscale antialiasing and unhinted metrics: the same pixels on every machine
        // (the golden images depend on it) and no sub-pixel colour fringes on a rotated panel.
        let options = cairo_font_options_create()
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_set_font_options(context, options)
        cairo_font_options_destroy(options)
    }

    deinit {
        cairo_destroy(context)
        cairo_surface_destroy(surface)
    }

    /// Premultiplied ARGB pixels, `stride` of them a row (valid after `finish()`).
    var pixels: UnsafeMutablePointer<UInt32> {
        UnsafeMutableRawPointer(cairo_image_surface_get_data(surface)!).assumingMemoryBound(to: UInt32.self)
    }

    var stride: Int { Int(cairo_image_surface_get_stride(surface)) / 4 }

    func clear() {
        cairo_save(context)
        cairo_set_operator(context, CAIRO_OPERATOR_CLEAR)
        cairo_paint(context)
        cairo_restore(context)
    }

    /// Makes part of the canvas transparent again (a part painted anew).
    func clear(_ rect: PixelRect) {
        cairo_save(context)
        cairo_set_operator(context, CAIRO_OPERATOR_CLEAR)
        cairo_rectangle(context, Double(rect.x), Double(rect.y), Double(rect.width), Double(rect.height))
        cairo_fill(context)
        cairo_restore(context)
    }

    /// Makes the drawing visible in `pixels`.
    func finish() { cairo_surface_flush(surface) }
}
