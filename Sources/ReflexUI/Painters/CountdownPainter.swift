import CCairo
import ReflexCore

/// The self-timer's seconds left, as large as the picture allows and white on a dark disc:
/// read from a few metres away by the people in the photo, over any scene.
struct CountdownPainter {
    let layout: ScreenLayout

    /// The disc's square, centred on the viewfinder: a third of its height.
    static func area(_ layout: ScreenLayout) -> PixelRect {
        let viewfinder = layout.viewfinder
        let side = max(viewfinder.height / 3, 1)
        return PixelRect(x: viewfinder.x + (viewfinder.width - side) / 2, y: viewfinder.y + (viewfinder.height - side) / 2,
                         width: side, height: side)
    }

    func paint(_ seconds: Int, on canvas: CairoCanvas, fonts: FontLibrary) {
        canvas.clear()
        let pen = Pen(canvas, fonts: fonts)
        let side = Double(canvas.width)
        cairo_arc(pen.context, side / 2, side / 2, side / 2 - 2, 0, 2 * Double.pi)
        pen.fill(Colour(hex: 0x000000, alpha: 0.55))
        cairo_arc(pen.context, side / 2, side / 2, side / 2 - 4 * layout.scale, 0, 2 * Double.pi)
        pen.stroke(Palette.accent, width: 4 * layout.scale)
        pen.font(.digits, size: side * 0.62)
        pen.text("\(seconds)", x: side / 2, middleY: side / 2, align: .centre, Palette.text)
        canvas.finish()
    }
}
