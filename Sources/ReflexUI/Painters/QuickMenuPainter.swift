import CCairo
import ReflexCore

/// Draws the quick menu's button (three lines under the HUD bar) and, while it is open, its
/// panel: a title, then a line for each setting, its value at the right between the arrows
/// a tap on either side steps by; the line the dials are on is marked with the accent.
struct QuickMenuPainter {
    let layout: ScreenLayout

    func paintButton(open: Bool, on canvas: CairoCanvas, fonts: FontLibrary) {
        canvas.clear()
        let pen = Pen(canvas, fonts: fonts)
        let s = layout.scale
        let w = Double(canvas.width), h = Double(canvas.height)
        pen.roundedRect(1, 1, w - 2, h - 2, radius: 14 * s)
        if open { pen.fill(Palette.accent) } else { pen.fill(Palette.surface) }
        let colour = open ? Palette.onAccent : Palette.text
        for i in -1...1 {
            let y = h / 2 + Double(i) * 10 * s
            pen.line(w / 2 - 14 * s, y, w / 2 + 14 * s, y, colour, width: 3 * s)
        }
        canvas.finish()
    }

    /// The open menu over `canvas` (the panel's size).
    /// `autoZoomAvailable`: the camera has a person detector (else its lines say it is not available).
    func paintPanel(_ menu: QuickMenu, settings: CameraSettings, autoZoomAvailable: Bool, on canvas: CairoCanvas,
                    fonts: FontLibrary) {
        canvas.clear()
        let pen = Pen(canvas, fonts: fonts)
        let s = layout.scale
        let panel = layout.menuPanel
        let lines = QuickMenuItem.lines(for: settings)
        // The panel is sized for the most lines; it ends below those shown (the consent
        // screen, whose answers sit at its foot, takes it whole).
        let lastRow = layout.menuRows[lines.count - 1]
        let w = Double(canvas.width)
        let h = menu.isAskingConsent ? Double(canvas.height)
            : min(Double(canvas.height), Double(lastRow.y + lastRow.height - panel.y) + 12 * s)
        pen.roundedRect(0, 0, w, h, radius: 16 * s)
        pen.fill(Colour(hex: 0x000000, alpha: 0.86))
        if menu.isAskingConsent {
            paintConsent(menu, pen: pen)
            canvas.finish()
            return
        }
        pen.font(.title, size: 18 * s)
        // (The button sits at the panel's corner: the title starts after it.)
        pen.text("Quick menu", x: Double(layout.menuButton.width) + 20 * s, middleY: 32 * s, Palette.secondaryText)
        for (row, item) in zip(layout.menuRows, lines) {
            let x = Double(row.x - panel.x), y = Double(row.y - panel.y)
            let rw = Double(row.width), rh = Double(row.height)
            let highlighted = item == menu.highlighted
            if highlighted {
                pen.roundedRect(x, y + 2 * s, rw, rh - 4 * s, radius: 10 * s)
                pen.fill(Palette.accent.withAlpha(0.22))
                pen.roundedRect(x + 1, y + 2 * s + 1, rw - 2, rh - 4 * s - 2, radius: 10 * s)
                pen.stroke(Palette.accent, width: 2 * s)
            }
            pen.font(.label, size: 19 * s)
            pen.text(item.title, x: x + 16 * s, middleY: y + rh / 2, Palette.text)
            let valueLeft = x + rw / 2, valueRight = x + rw
            pen.font(.title, size: 19 * s)
            let unavailable = !autoZoomAvailable && (item == .autoZoom || item == .autoZoomFraming)
            pen.text(unavailable ? InterfaceText.unavailable : item.value(settings), x: (valueLeft + valueRight) / 2, middleY: y + rh / 2, align: .centre,
                     highlighted ? Palette.accent : Palette.text)
            pen.font(.title, size: 22 * s)
            pen.text("‹", x: valueLeft + 14 * s, middleY: y + rh / 2, align: .centre, Palette.secondaryText)
            pen.text("›", x: valueRight - 14 * s, middleY: y + rh / 2, align: .centre, Palette.secondaryText)
            if item != lines.last {
                pen.line(x + 8 * s, y + rh - 0.5, x + rw - 8 * s, y + rh - 0.5, Palette.hairline, width: 1)
            }
        }
        canvas.finish()
    }

    /// The geotag consent screen in the panel's place: what geotag writes and who can read
    /// it, then Don't allow and Allow; the answer the dials are on carries the accent's ring.
    private func paintConsent(_ menu: QuickMenu, pen: Pen) {
        let s = layout.scale
        let panel = layout.menuPanel
        let margin = 28 * s
        pen.font(.title, size: 24 * s)
        // (After the menu's button, which sits at the panel's corner.)
        pen.text(InterfaceText.consentTitle, x: Double(layout.menuButton.width) + 20 * s, middleY: 34 * s, Palette.text)
        pen.font(.label, size: 17 * s)
        for (index, line) in InterfaceText.consentLines.enumerated() {
            pen.text(line, x: margin, middleY: (84 + Double(index) * 27) * s, Palette.secondaryText)
        }
        answer(InterfaceText.consentDeny, in: layout.consentDenyButton.relative(to: panel), pen: pen,
               prominent: false, highlighted: !menu.consentAllowHighlighted)
        answer(InterfaceText.consentAllow, in: layout.consentAllowButton.relative(to: panel), pen: pen,
               prominent: true, highlighted: menu.consentAllowHighlighted)
    }

    private func answer(_ text: String, in rect: PixelRect, pen: Pen, prominent: Bool, highlighted: Bool) {
        let s = layout.scale
        let x = Double(rect.x), y = Double(rect.y), w = Double(rect.width), h = Double(rect.height)
        pen.roundedRect(x, y, w, h, radius: h / 2)
        if prominent { pen.fill(Palette.accent) } else { pen.stroke(Palette.secondaryText, width: 2 * s) }
        if highlighted {
            pen.roundedRect(x - 5 * s, y - 5 * s, w + 10 * s, h + 10 * s, radius: h / 2 + 5 * s)
            pen.stroke(Palette.text, width: 2 * s)
        }
        pen.font(.title, size: 19 * s)
        pen.text(text, x: x + w / 2, middleY: y + h / 2, align: .centre, prominent ? Palette.onAccent : Palette.text)
    }
}
