import ReflexCore

/// Draws the lens buttons (0.5x 1x 3x) in their column left of the shutter: round, the
/// lens streaming filled with the accent, as a phone's lens switcher marks its lens.
struct LensButtonsPainter {
    let layout: ScreenLayout

    func paint(_ lenses: LensSet, active: Int?, on canvas: CairoCanvas, fonts: FontLibrary) {
        canvas.clear()
        let pen = Pen(canvas, fonts: fonts)
        let s = layout.scale
        for (index, button) in layout.lensButtons(count: lenses.lenses.count).enumerated() {
            let area = button.relative(to: layout.lensColumn)
            let side = Double(area.width)
            let x = Double(area.x), y = Double(area.y)
            let isActive = index == active
            pen.roundedRect(x, y, side, side, radius: side / 2)
            pen.fill(isActive ? Palette.accent : Palette.surface)
            if !isActive {
                pen.roundedRect(x + s, y + s, side - 2 * s, side - 2 * s, radius: side / 2 - s)
                pen.stroke(Palette.hairline, width: 2 * s)
            }
            pen.font(.title, size: 17 * s)
            pen.text(lenses.lenses[index].label, x: x + side / 2, middleY: y + side / 2, align: .centre,
                     isActive ? Palette.onAccent : Palette.text)
        }
        canvas.finish()
    }
}
