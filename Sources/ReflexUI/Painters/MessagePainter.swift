import CCairo
import ReflexCore

/// Draws the failure screens (full screen, no picture) and the banners over the picture (a
/// missing card; photos not saved, with Retry and Discard): one calm visual language — a
/// drawn symbol, a plain title, one line of what to do. The viewfinder stays live under them.
struct MessagePainter {
    let layout: ScreenLayout

    /// The rectangle painted, or nil when there is nothing to say.
    func paint(_ state: ViewState, on canvas: CairoCanvas, fonts: FontLibrary) -> PixelRect? {
        canvas.clear()
        let pen = Pen(canvas, fonts: fonts)
        let s = layout.scale
        let w = Double(layout.width), h = Double(layout.height)
        if let (title, detail) = InterfaceText.message(state.screen) {
            cairo_rectangle(pen.context, 0, 0, w, h)
            pen.fill(Palette.screen)
            let centreY = h / 2 - 40 * s
            cameraSymbol(centreX: w / 2, centreY: centreY - 40 * s, pen: pen, crossed: state.screen == .noCamera)
            pen.font(.title, size: 34 * s)
            pen.text(title, x: w / 2, middleY: centreY + 64 * s, align: .centre, Palette.text)
            pen.font(.label, size: 20 * s)
            pen.text(detail, x: w / 2, middleY: centreY + 108 * s, align: .centre, Palette.secondaryText)
            canvas.finish()
            return PixelRect(x: 0, y: 0, width: layout.width, height: layout.height)
        }
        if let problem = state.saveProblem {
            let banner = layout.saveBanner
            card(banner, pen: pen)
            pen.font(.title, size: 22 * s)
            pen.text(problem.message, x: w / 2, middleY: Double(banner.y) + 32 * s, align: .centre, Palette.text)
            pen.font(.label, size: 16 * s)
            pen.text(problem.detail, x: w / 2, middleY: Double(banner.y) + 60 * s, align: .centre, Palette.secondaryText)
            answer(InterfaceText.discard, in: layout.discardButton, pen: pen, prominent: false)
            answer(InterfaceText.retry, in: layout.retryButton, pen: pen, prominent: true)
            canvas.finish()
            return banner
        }
        guard state.storage == .missing else {
            canvas.finish()
            return nil
        }
        let banner = layout.banner
        card(banner, pen: pen)
        pen.font(.title, size: 22 * s)
        pen.text(InterfaceText.storageMissing.title, x: w / 2, middleY: Double(banner.y) + 32 * s, align: .centre,
                 Palette.text)
        pen.font(.label, size: 16 * s)
        pen.text(InterfaceText.storageMissing.detail, x: w / 2, middleY: Double(banner.y) + 62 * s, align: .centre,
                 Palette.secondaryText)
        canvas.finish()
        return banner
    }

    /// A banner's card: the surface, with the accent's border.
    private func card(_ banner: PixelRect, pen: Pen) {
        let s = layout.scale
        pen.roundedRect(Double(banner.x), Double(banner.y), Double(banner.width), Double(banner.height), radius: 16 * s)
        pen.fill(Palette.surface)
        pen.roundedRect(Double(banner.x) + 1, Double(banner.y) + 1, Double(banner.width) - 2, Double(banner.height) - 2,
                        radius: 15 * s)
        pen.stroke(Palette.accent, width: 2 * s)
    }

    /// One of a banner's answers: the one to prefer filled with the accent, the other outlined.
    private func answer(_ text: String, in rect: PixelRect, pen: Pen, prominent: Bool) {
        let s = layout.scale
        pen.roundedRect(Double(rect.x), Double(rect.y), Double(rect.width), Double(rect.height), radius: 24 * s)
        if prominent { pen.fill(Palette.accent) } else { pen.stroke(Palette.secondaryText, width: 2 * s) }
        pen.font(.title, size: 18 * s)
        pen.text(text, x: Double(rect.x + rect.width / 2), middleY: Double(rect.y + rect.height / 2), align: .centre,
                 prominent ? Palette.onAccent : Palette.text)
    }

    /// A camera body in outline; crossed out when there is none.
    private func cameraSymbol(centreX: Double, centreY: Double, pen: Pen, crossed: Bool) {
        let s = layout.scale
        let bodyWidth = 112 * s, bodyHeight = 76 * s
        let left = centreX - bodyWidth / 2, top = centreY - bodyHeight / 2
        pen.roundedRect(left, top, bodyWidth, bodyHeight, radius: 12 * s)
        pen.stroke(Palette.secondaryText, width: 4 * s)
        pen.roundedRect(centreX - 22 * s, top - 14 * s, 44 * s, 16 * s, radius: 4 * s)
        pen.stroke(Palette.secondaryText, width: 4 * s)
        cairo_new_sub_path(pen.context)
        cairo_arc(pen.context, centreX, centreY + 2 * s, 22 * s, 0, 2 * Double.pi)
        pen.stroke(Palette.secondaryText, width: 4 * s)
        if crossed {
            pen.line(left - 10 * s, top + bodyHeight + 16 * s, left + bodyWidth + 10 * s, top - 26 * s, Palette.screen,
                     width: 12 * s)
            pen.line(left - 10 * s, top + bodyHeight + 16 * s, left + bodyWidth + 10 * s, top - 26 * s, Palette.accent,
                     width: 4 * s)
        } else {
            // Reconnecting: a small arc with an arrowhead, the universal "trying again".
            cairo_new_sub_path(pen.context)
            cairo_arc(pen.context, centreX, centreY + 2 * s, 10 * s, 0.3, 1.5 * Double.pi)
            pen.stroke(Palette.accent, width: 3 * s)
        }
    }
}
