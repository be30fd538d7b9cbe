import ReflexCore

/// Draws the Auto/Pro toggle: two segments, the active one filled (white for Auto, the
/// accent for Pro, so Pro is recognisable from the corner of the eye).
struct ModeTogglePainter {
    let layout: ScreenLayout

    func paint(_ mode: ShootingMode, on canvas: CairoCanvas, fonts: FontLibrary) {
        canvas.clear()
        let pen = Pen(canvas, fonts: fonts)
        let s = layout.scale
        let w = Double(canvas.width), h = Double(canvas.height)
        pen.roundedRect(0, 0, w, h, radius: h / 2)
        pen.fill(Palette.surface)
        let inset = 6 * s, half = (w - 2 * inset) / 2
        for (index, segment) in ShootingMode.allCases.enumerated() {
            let left = inset + Double(index) * half
            let active = segment == mode
            if active {
                pen.roundedRect(left, inset, half, h - 2 * inset, radius: (h - 2 * inset) / 2)
                pen.fill(segment == .pro ? Palette.accent : Palette.text)
            }
            pen.font(.title, size: 19 * s)
            pen.text(segment == .pro ? "PRO" : "AUTO", x: left + half / 2, middleY: h / 2, align: .centre,
                     active ? Palette.onAccent : Palette.secondaryText)
        }
        canvas.finish()
    }
}
