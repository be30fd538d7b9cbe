import CCairo
import ReflexCore

/// Draws what Pro adds: the white balance presets (while the WB dial is selected) and the
/// four dial faces, each with its name, its value and a ruler of its stops.
struct ControlsPainter {
    let layout: ScreenLayout
    let scales: DialScales

    func paint(_ state: ViewState, on canvas: CairoCanvas, fonts: FontLibrary) {
        canvas.clear()
        let pen = Pen(canvas, fonts: fonts)
        let origin = layout.controls
        if state.settings.selectedDial == .whiteBalance {
            for (slot, preset) in zip(layout.presetSlots, WhiteBalance.presetRow) {
                paintPreset(preset, selected: state.settings.whiteBalance == preset, in: slot.relative(to: origin), pen: pen)
            }
        }
        for (slot, dial) in zip(layout.dialSlots, Dial.allCases) {
            paintDial(dial, state, in: slot.relative(to: origin), pen: pen)
        }
        canvas.finish()
    }

    private func paintPreset(_ preset: WhiteBalance, selected: Bool, in r: PixelRect, pen: Pen) {
        let s = layout.scale
        pen.roundedRect(Double(r.x), Double(r.y), Double(r.width), Double(r.height), radius: 12 * s)
        pen.fill(selected ? Palette.accent : Palette.surface)
        pen.font(.title, size: 16 * s)
        let centre = Double(r.x) + Double(r.width) / 2
        let name = InterfaceText.presetName(preset)
        if let kelvin = preset.kelvin {
            pen.text(name, x: centre, middleY: Double(r.y) + 20 * s, align: .centre, selected ? Palette.onAccent : Palette.text)
            pen.font(.digits, size: 13 * s)
            pen.text("\(kelvin)K", x: centre, middleY: Double(r.y) + 39 * s, align: .centre,
                     selected ? Palette.onAccent : Palette.secondaryText)
        } else {
            pen.text(name, x: centre, middleY: Double(r.y) + Double(r.height) / 2, align: .centre,
                     selected ? Palette.onAccent : Palette.text)
        }
    }

    private func paintDial(_ dial: Dial, _ state: ViewState, in r: PixelRect, pen: Pen) {
        let s = layout.scale
        let x = Double(r.x), y = Double(r.y), w = Double(r.width), h = Double(r.height)
        let available = dial != .focus || state.hasFocusDial
        let selected = available && state.settings.selectedDial == dial
        pen.roundedRect(x, y, w, h, radius: 14 * s)
        pen.fill(Palette.surface)
        if selected {
            pen.roundedRect(x + 1.5 * s, y + 1.5 * s, w - 3 * s, h - 3 * s, radius: 12.5 * s)
            pen.stroke(Palette.accent, width: 3 * s)
        }
        let dim = available ? 1.0 : 0.45
        pen.font(.title, size: 13 * s)
        pen.text(InterfaceText.dialName(dial), x: x + 16 * s, middleY: y + 22 * s,
                 (selected ? Palette.accent : Palette.secondaryText).withAlpha(dim))
        guard available else {
            pen.font(.label, size: 17 * s)
            pen.text("Fixed focus", x: x + w / 2, middleY: y + h / 2, align: .centre, Palette.secondaryText.withAlpha(dim))
            return
        }
        let manual = InterfaceText.isManual(dial, state.settings)
        pen.font(.title, size: 11 * s)
        pen.text(manual ? "MANUAL" : "AUTO", x: x + w - 16 * s, middleY: y + 22 * s, align: .trailing,
                 manual ? Palette.accent : Palette.secondaryText)
        pen.font(.digits, size: 34 * s)
        pen.text(InterfaceText.dialValue(dial, state), x: x + w / 2, middleY: y + 66 * s, align: .centre, Palette.text)
        paintRuler(DialRuler(dial, state, scales: scales), centreX: x + w / 2, baseY: y + h - 18 * s,
                   halfWidth: w / 2 - 18 * s, manual: manual, pen: pen)
    }

    /// Stop marks around the current value, which sits under a fixed pointer in the middle:
    /// turning the dial slides the ruler, as on a lens barrel.
    private func paintRuler(_ ruler: DialRuler, centreX: Double, baseY: Double, halfWidth: Double, manual: Bool, pen: Pen) {
        let s = layout.scale
        let spacing = 11 * s
        let reach = Int(halfWidth / spacing)
        for offset in -reach...reach {
            let i = ruler.index + offset
            guard i >= 0 && i < ruler.count else { continue }
            let tx = (centreX + Double(offset) * spacing).rounded() + 0.5
            let major = ruler.isMajor(i)
            let length = (major ? 16 : 8) * s
            // Marks fade toward the ends so the eye stays on the middle.
            let fade = 1 - 0.7 * Double(abs(offset)) / Double(max(reach, 1))
            pen.line(tx, baseY, tx, baseY - length, Palette.text.withAlpha((major ? 0.9 : 0.55) * fade), width: 1.5 * s)
        }
        let pointer = manual ? Palette.accent : Palette.text
        cairo_move_to(pen.context, centreX, baseY - 20 * s)
        cairo_line_to(pen.context, centreX - 6 * s, baseY - 28 * s)
        cairo_line_to(pen.context, centreX + 6 * s, baseY - 28 * s)
        cairo_close_path(pen.context)
        pen.fill(pointer)
        pen.line(centreX, baseY + 2 * s, centreX, baseY - 20 * s, pointer, width: 2.5 * s)
    }
}
