import CCairo

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

    /// A padlock `scale` times its design size, its body's top at `middleY` (a read-only file).
    func padlock(x: Double, middleY: Double, scale s: Double, _ c: Colour) {
        roundedRect(x, middleY - 4 * s, 18 * s, 14 * s, radius: 2 * s)
        fill(c)
        cairo_new_sub_path(context)
        cairo_arc(context, x + 9 * s, middleY - 4 * s, 6 * s, Double.pi, 0)
        stroke(c, width: 2.5 * s)
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
        // show_text leaves the current point after the text: the next arc or line would
        // start from it (a stray line across the layer).
        cairo_new_path(context)
    }
}
