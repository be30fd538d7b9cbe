import CCairo

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

    /// Makes the drawing visible in `pixels`.
    func finish() { cairo_surface_flush(surface) }
}

/// Drawing helpers over a Cairo context, in the canvas's pixels.
struct Pen {
    let context: OpaquePointer
    let fonts: FontLibrary

    init(_ canvas: CairoCanvas, fonts: FontLibrary) {
        context = canvas.context
        self.fonts = fonts
    }

    func colour(_ c: Colour) { cairo_set_source_rgba(context, c.red, c.green, c.blue, c.alpha) }

    func roundedRect(_ x: Double, _ y: Double, _ w: Double, _ h: Double, radius: Double) {
        let r = min(radius, w / 2, h / 2)
        cairo_new_sub_path(context)
        cairo_arc(context, x + w - r, y + r, r, -Double.pi / 2, 0)
        cairo_arc(context, x + w - r, y + h - r, r, 0, Double.pi / 2)
        cairo_arc(context, x + r, y + h - r, r, Double.pi / 2, Double.pi)
        cairo_arc(context, x + r, y + r, r, Double.pi, 3 * Double.pi / 2)
        cairo_close_path(context)
    }

    func fill(_ c: Colour) {
        colour(c)
        cairo_fill(context)
    }

    func stroke(_ c: Colour, width: Double) {
        colour(c)
        cairo_set_line_width(context, width)
        cairo_stroke(context)
    }

    func line(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ c: Colour, width: Double) {
        cairo_move_to(context, x0, y0)
        cairo_line_to(context, x1, y1)
        stroke(c, width: width)
    }

    func font(_ face: FontLibrary.Face, size: Double) {
        cairo_set_font_face(context, fonts.cairoFace(face))
        cairo_set_font_size(context, size)
    }

    func textWidth(_ text: String) -> Double {
        var extents = cairo_text_extents_t()
        cairo_text_extents(context, text, &extents)
        return extents.x_advance
    }

    enum Alignment { case leading, centre, trailing }

    /// Draws one line with its capital height centred on `middleY`, so labels of any
    /// content line up on a common baseline.
    func text(_ text: String, x: Double, middleY: Double, align: Alignment = .leading, _ c: Colour) {
        var capital = cairo_text_extents_t()
        cairo_text_extents(context, "H", &capital)
        let baseline = (middleY - capital.y_bearing / 2).rounded()
        let width = textWidth(text)
        let left = switch align {
        case .leading: x
        case .centre: x - width / 2
        case .trailing: x - width
        }
        colour(c)
        cairo_move_to(context, left.rounded(), baseline)
        cairo_show_text(context, text)
    }
}
