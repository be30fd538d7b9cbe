import CCairo
import ReflexISP
import ReflexCore

/// Draws the HUD bar: the exposure readout at the left, the indicators at the right.
/// It never fades: the photographer reads the exposure at any moment.
struct TopBarPainter {
    let layout: ScreenLayout

    func paint(_ state: ViewState, on canvas: CairoCanvas, fonts: FontLibrary) {
        canvas.clear()
        let pen = Pen(canvas, fonts: fonts)
        let s = layout.scale
        let w = Double(canvas.width), h = Double(canvas.height)
        cairo_rectangle(pen.context, 0, 0, w, h)
        pen.fill(Palette.surface)
        pen.line(0, h - 0.5, w, h - 0.5, Palette.hairline, width: 1)

        var x = 20 * s
        for item in InterfaceText.hudItems(state) {
            pen.font(.title, size: 12 * s)
            pen.text(item.label, x: x, middleY: 18 * s, item.manual ? Palette.accent : Palette.secondaryText)
            pen.font(.digits, size: 27 * s)
            pen.text(item.value, x: x, middleY: 42 * s, Palette.text)
            x += TopBarPainter.columnWidth(item.label) * s
        }

        var right = w - 20 * s
        pen.font(.title, size: 15 * s)
        for indicator in InterfaceText.indicators(state).reversed() {
            let textWidth = pen.textWidth(indicator.text)
            let chipWidth = textWidth + 24 * s, chipHeight = 32 * s
            let left = right - chipWidth
            pen.roundedRect(left, (h - chipHeight) / 2, chipWidth, chipHeight, radius: 8 * s)
            if indicator.attention {
                pen.fill(Palette.accent)
            } else {
                pen.stroke(Palette.text.withAlpha(0.55), width: 1.5 * s)
            }
            pen.text(indicator.text, x: left + chipWidth / 2, middleY: h / 2, align: .centre,
                     indicator.attention ? Palette.onAccent : Palette.text)
            right = left - 10 * s
        }
        canvas.finish()
    }

    /// Fixed columns, wide enough for the longest value each can show ("12800", "1/8000",
    /// "+1 1/3"), so values never push their neighbours around as they change.
    static func columnWidth(_ label: String) -> Double {
        switch label {
        case "ISO": 112
        case "SHUTTER": 128
        case "APERTURE": 116
        case "EV": 124
        case "ZOOM": 104
        default: 120
        }
    }
}

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

/// Draws the failure screens (full screen, no picture) and the storage banner (over the
/// picture): one calm visual language — a drawn symbol, a plain title, one line of what to do.
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
        guard state.storage == .missing else {
            canvas.finish()
            return nil
        }
        let banner = PixelRect(x: Int((w - 600 * s) / 2), y: layout.topBar.height + Int(16 * s),
                               width: Int(600 * s), height: Int(92 * s))
        pen.roundedRect(Double(banner.x), Double(banner.y), Double(banner.width), Double(banner.height), radius: 16 * s)
        pen.fill(Palette.surface)
        pen.roundedRect(Double(banner.x) + 1, Double(banner.y) + 1, Double(banner.width) - 2, Double(banner.height) - 2,
                        radius: 15 * s)
        pen.stroke(Palette.accent, width: 2 * s)
        pen.font(.title, size: 22 * s)
        pen.text(InterfaceText.storageMissing.title, x: w / 2, middleY: Double(banner.y) + 32 * s, align: .centre,
                 Palette.text)
        pen.font(.label, size: 16 * s)
        pen.text(InterfaceText.storageMissing.detail, x: w / 2, middleY: Double(banner.y) + 62 * s, align: .centre,
                 Palette.secondaryText)
        canvas.finish()
        return banner
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
