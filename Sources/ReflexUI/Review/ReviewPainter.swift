import CCairo
import ReflexCore

/// Draws review's overlay in the camera's visual language: the item's details on a dark bar
/// along the top (number, place, format, a lock when protected and a pin where it carries a
/// location; then the date and the exposure), the buttons along the bottom, the delete
/// question as a card in the middle with Cancel, the safe answer, highlighted until the
/// photographer moves to Delete, and what the card said (empty, a file that cannot be shown).
struct ReviewPainter {
    let layout: ScreenLayout
    let review: ReviewLayout

    func paintInfo(_ screen: ReviewScreen, notice: String?, on canvas: CairoCanvas, fonts: FontLibrary) {
        canvas.clear()
        let pen = Pen(canvas, fonts: fonts)
        let s = layout.scale, bar = review.infoBar
        cairo_rectangle(pen.context, 0, 0, Double(bar.width), Double(bar.height))
        pen.fill(Palette.surface)
        let left = 20 * s, firstLine = 28 * s, secondLine = 62 * s
        if let notice {
            pen.font(.title, size: 22 * s)
            pen.text(notice, x: Double(bar.width) / 2, middleY: Double(bar.height) / 2, align: .centre, Palette.accent)
        } else if let info = screen.info {
            pen.font(.title, size: 24 * s)
            pen.text(info.number, x: left, middleY: firstLine, Palette.text)
            var x = left + pen.textWidth(info.number) + 20 * s
            pen.font(.label, size: 18 * s)
            pen.text(info.place, x: x, middleY: firstLine, Palette.secondaryText)
            x += pen.textWidth(info.place) + 20 * s
            if info.isProtected {
                pen.padlock(x: x, middleY: firstLine, scale: s, Palette.accent)
                x += 30 * s
            }
            if info.hasLocation { pin(x: x, middleY: firstLine, pen: pen) }
            pen.font(.title, size: 20 * s)
            let format = info.movieLength.map { info.format + "  " + $0 } ?? info.format
            pen.text(format, x: Double(bar.width) - left, middleY: firstLine, align: .trailing, Palette.accent)
            if let zoom = screen.zoom {
                pen.font(.digits, size: 18 * s)
                pen.text(InterfaceText.reviewZoom(zoom.scale), x: Double(bar.width) - left, middleY: secondLine, align: .trailing,
                         Palette.text)
            }
            var details = [info.taken, info.exposure].compactMap { $0 }.joined(separator: "     ")
            if let progress = info.progress {
                details = InterfaceText.movieLength(seconds: progress.seconds) + " / "
                    + InterfaceText.movieLength(seconds: Double(progress.durationTenths) / 10)
                timeBar(progress, pen: pen)
            }
            pen.font(.digits, size: 17 * s)
            pen.text(details, x: left, middleY: secondLine, Palette.secondaryText)
        } else if !screen.cardIsEmpty {
            pen.font(.title, size: 22 * s)
            pen.text(InterfaceText.reviewReading, x: Double(bar.width) / 2, middleY: Double(bar.height) / 2, align: .centre,
                     Palette.text)
        }
        canvas.finish()
    }

    func paintButtons(_ screen: ReviewScreen, on canvas: CairoCanvas, fonts: FontLibrary) {
        canvas.clear()
        let pen = Pen(canvas, fonts: fonts)
        let bar = review.buttonBar
        cairo_rectangle(pen.context, 0, 0, Double(bar.width), Double(bar.height))
        pen.fill(Palette.surface)
        button(InterfaceText.reviewBack, review.backButton.relative(to: bar), pen: pen, style: .outlined)
        if screen.info != nil {
            button(InterfaceText.reviewIndex, review.indexButton.relative(to: bar), pen: pen,
                   style: screen.grid != nil ? .selected : .outlined)
        }
        if let info = screen.info {
            button(InterfaceText.reviewInfo, review.infoButton.relative(to: bar), pen: pen,
                   style: screen.histogramShown ? .selected : .outlined)
            button(info.isProtected ? InterfaceText.reviewUnprotect : InterfaceText.reviewProtect,
                   review.protectButton.relative(to: bar), pen: pen, style: info.isProtected ? .selected : .outlined)
            button(InterfaceText.reviewDelete, review.deleteButton.relative(to: bar), pen: pen,
                   style: info.isProtected ? .disabled : .outlined)
        }
        canvas.finish()
    }

    /// The delete question, or what there is to say instead of a picture; false: nothing.
    func paintCentre(_ screen: ReviewScreen, on canvas: CairoCanvas, fonts: FontLibrary) -> Bool {
        canvas.clear()
        defer { canvas.finish() }
        let pen = Pen(canvas, fonts: fonts)
        let s = layout.scale, card = review.dialog
        let middle = Double(card.width) / 2
        if screen.confirmingDelete, let info = screen.info {
            surface(card, pen: pen)
            let (title, detail) = InterfaceText.deleteQuestion(info)
            pen.font(.title, size: 24 * s)
            pen.text(title, x: middle, middleY: 36 * s, align: .centre, Palette.text)
            pen.font(.label, size: 17 * s)
            for (line, text) in detail.enumerated() {
                pen.text(text, x: middle, middleY: (68 + 24 * Double(line)) * s, align: .centre, Palette.secondaryText)
            }
            button(InterfaceText.reviewCancel, review.cancelAnswer.relative(to: card), pen: pen,
                   style: screen.deleteHighlighted ? .outlined : .selected)
            button(InterfaceText.reviewDelete, review.deleteAnswer.relative(to: card), pen: pen,
                   style: screen.deleteHighlighted ? .selected : .outlined)
            return true
        }
        if let info = screen.info, info.format == "MOVIE", info.problem == nil, info.progress?.playing != true {
            // A movie not playing: the play button in the middle.
            let (x, y, radius) = (middle, Double(card.height) / 2, 52 * s)
            cairo_new_sub_path(pen.context)
            cairo_arc(pen.context, x, y, radius, 0, 2 * Double.pi)
            pen.fill(Palette.surface)
            cairo_new_sub_path(pen.context)
            cairo_arc(pen.context, x, y, radius, 0, 2 * Double.pi)
            pen.stroke(Palette.text, width: 3 * s)
            cairo_move_to(pen.context, x - 16 * s, y - 26 * s)
            cairo_line_to(pen.context, x + 28 * s, y)
            cairo_line_to(pen.context, x - 16 * s, y + 26 * s)
            cairo_close_path(pen.context)
            pen.fill(Palette.text)
            return true
        }
        if let problem = screen.info?.problem ?? (screen.cardIsEmpty ? InterfaceText.reviewEmptyCard : nil) {
            surface(card, pen: pen)
            pen.font(.title, size: 24 * s)
            pen.text(problem, x: middle, middleY: Double(card.height) / 2, align: .centre, Palette.text)
            return true
        }
        return false
    }

    /// A movie's time bar: the whole length quiet, the part played in the accent.
    private func timeBar(_ progress: MovieProgress, pen: Pen) {
        let bar = review.timeBar, s = layout.scale
        pen.roundedRect(Double(bar.x), Double(bar.y), Double(bar.width), Double(bar.height), radius: 3 * s)
        pen.fill(Palette.hairline)
        pen.roundedRect(Double(bar.x), Double(bar.y), max(Double(bar.height), Double(bar.width) * progress.fraction),
                        Double(bar.height), radius: 3 * s)
        pen.fill(Palette.accent)
    }

    /// The picture's histogram, bars over the surface (the live view's look).
    func paintHistogram(_ counts: [Int], on canvas: CairoCanvas, fonts: FontLibrary) {
        canvas.clear()
        let pen = Pen(canvas, fonts: fonts)
        let s = layout.scale, (w, h) = (Double(canvas.width), Double(canvas.height))
        pen.roundedRect(0, 0, w, h, radius: 8 * s)
        pen.fill(Palette.surface)
        let tallest = max(counts.max() ?? 1, 1), padding = 8 * s
        let barWidth = (w - 2 * padding) / Double(max(counts.count, 1))
        for (bin, count) in counts.enumerated() where count > 0 {
            let barHeight = (h - 2 * padding) * Double(count) / Double(tallest)
            cairo_rectangle(pen.context, padding + Double(bin) * barWidth, h - padding - barHeight, barWidth, barHeight)
        }
        pen.fill(Palette.histogram)
        canvas.finish()
    }

    private enum ButtonStyle { case outlined, selected, disabled }

    private func button(_ text: String, _ rect: PixelRect, pen: Pen, style: ButtonStyle) {
        let s = layout.scale
        pen.roundedRect(Double(rect.x), Double(rect.y), Double(rect.width), Double(rect.height), radius: 14 * s)
        switch style {
        case .selected: pen.fill(Palette.accent)
        case .outlined: pen.stroke(Palette.secondaryText, width: 2 * s)
        case .disabled: pen.stroke(Palette.hairline, width: 2 * s)
        }
        pen.font(.title, size: 19 * s)
        let colour = switch style {
        case .selected: Palette.onAccent
        case .outlined: Palette.text
        case .disabled: Palette.hairline
        }
        pen.text(text, x: Double(rect.x + rect.width / 2), middleY: Double(rect.y + rect.height / 2), align: .centre, colour)
    }

    private func surface(_ card: PixelRect, pen: Pen) {
        let s = layout.scale
        pen.roundedRect(1, 1, Double(card.width) - 2, Double(card.height) - 2, radius: 16 * s)
        pen.fill(Colour(hex: 0x000000, alpha: 0.86))
        pen.roundedRect(1, 1, Double(card.width) - 2, Double(card.height) - 2, radius: 16 * s)
        pen.stroke(Palette.accent, width: 2 * s)
    }

    /// A map pin: the file carries a location.
    private func pin(x: Double, middleY: Double, pen: Pen) {
        let s = layout.scale
        cairo_new_sub_path(pen.context)
        cairo_arc(pen.context, x + 8 * s, middleY - 3 * s, 7 * s, Double.pi, 0)
        cairo_line_to(pen.context, x + 8 * s, middleY + 11 * s)
        cairo_close_path(pen.context)
        pen.fill(Palette.text)
        cairo_new_sub_path(pen.context)
        cairo_arc(pen.context, x + 8 * s, middleY - 3 * s, 2.5 * s, 0, 2 * Double.pi)
        pen.fill(Palette.onAccent)
    }
}
