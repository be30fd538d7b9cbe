import CCairo
import ReflexCore

/// Draws what Pro adds: the white balance presets (while the WB dial is selected) and the
/// four dial faces, each with its name, its value and a ruler of its stops.
struct ControlsPainter {
    let layout: ScreenLayout
    let scales: DialScales

    /// Paints `content`; over a canvas that shows `painted`, only the dials whose face changed
    /// (a detent costs one dial, not the whole panel).
    func paint(_ content: ControlsContent, over painted: ControlsContent?, on canvas: CairoCanvas, fonts: FontLibrary) {
        let pen = Pen(canvas, fonts: fonts)
        let origin = layout.controls
        guard let painted, painted.presetsShowing == content.presetsShowing, painted.faces.count == content.faces.count else {
            canvas.clear()
            if let chosen = content.presetsShowing {
                for (slot, preset) in zip(layout.presetSlots, WhiteBalance.presetRow) {
                    paintPreset(preset, selected: chosen == preset, in: slot.relative(to: origin), pen: pen)
                }
            }
            for (slot, face) in zip(layout.dialSlots, content.faces) { paintDial(face, in: slot.relative(to: origin), pen: pen) }
            canvas.finish()
            return
        }
        for (index, slot) in layout.dialSlots.enumerated() where index < content.faces.count {
            guard content.faces[index] != painted.faces[index] else { continue }
            let rect = slot.relative(to: origin)
            canvas.clear(rect)
            paintDial(content.faces[index], in: rect, pen: pen)
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

    private func paintDial(_ face: DialFace, in r: PixelRect, pen: Pen) {
        let s = layout.scale
        let x = Double(r.x), y = Double(r.y), w = Double(r.width), h = Double(r.height)
        pen.roundedRect(x, y, w, h, radius: 14 * s)
        pen.fill(Palette.surface)
        if face.selected {
            pen.roundedRect(x + 1.5 * s, y + 1.5 * s, w - 3 * s, h - 3 * s, radius: 12.5 * s)
            pen.stroke(Palette.accent, width: 3 * s)
        }
        let dim = face.available ? 1.0 : 0.45
        pen.font(.title, size: 13 * s)
        pen.text(InterfaceText.dialName(face.dial), x: x + 16 * s, middleY: y + 22 * s,
                 (face.selected ? Palette.accent : Palette.secondaryText).withAlpha(dim))
        guard face.available, let ruler = face.ruler else {
            pen.font(.label, size: 17 * s)
            pen.text("Fixed focus", x: x + w / 2, middleY: y + h / 2, align: .centre, Palette.secondaryText.withAlpha(dim))
            return
        }
        pen.font(.title, size: 11 * s)
        pen.text(face.manual ? "MANUAL" : "AUTO", x: x + w - 16 * s, middleY: y + 22 * s, align: .trailing,
                 face.manual ? Palette.accent : Palette.secondaryText)
        pen.font(.digits, size: 34 * s)
        pen.text(face.value, x: x + w / 2, middleY: y + 66 * s, align: .centre, Palette.text)
        paintRuler(ruler, centreX: x + w / 2, baseY: y + h - 18 * s, halfWidth: w / 2 - 18 * s, manual: face.manual, pen: pen)
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
