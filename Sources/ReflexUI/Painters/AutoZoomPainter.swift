import CCairo
import ReflexCore

/// Draws the AUTO ZOOM button under the quick menu's (white while on, quiet while off, its
/// words dimmed while a manual zoom has paused it) and, while the subject is lost and the zoom
/// widens to find it, "Subject lost" beside it on the picture ("Following" while it frames the
/// person the photographer tapped).
struct AutoZoomPainter {
    let layout: ScreenLayout

    /// The layer: the button, then room for the words beside it.
    static func area(_ layout: ScreenLayout) -> PixelRect {
        let button = layout.autoZoomButton
        return PixelRect(x: button.x, y: button.y, width: button.width + Int(layout.pixels(210)), height: button.height)
    }

    func paint(_ indicator: AutoZoomIndicator, on canvas: CairoCanvas, fonts: FontLibrary) {
        canvas.clear()
        defer { canvas.finish() }
        guard indicator != .unavailable else { return }
        let pen = Pen(canvas, fonts: fonts)
        let s = layout.scale
        let w = Double(layout.autoZoomButton.width), h = Double(layout.autoZoomButton.height)
        pen.roundedRect(1, 1, w - 2, h - 2, radius: 14 * s)
        let on = indicator.isOn
        pen.fill(on ? Palette.text : Palette.surface)
        let ink = on ? (indicator == .paused ? Palette.secondaryText : Palette.surface) : Palette.text
        pen.font(.label, size: 13 * s)
        pen.text("AUTO", x: w / 2, middleY: h / 2 - 9 * s, align: .centre, ink)
        pen.text("ZOOM", x: w / 2, middleY: h / 2 + 9 * s, align: .centre, ink)
        let chip = switch indicator {
        case .searching: InterfaceText.subjectLost
        case .followingChosen: InterfaceText.followingChosen
        default: ""
        }
        if !chip.isEmpty {
            let x = w + 12 * s, labelWidth = 180 * s, labelHeight = 36 * s
            pen.roundedRect(x, (h - labelHeight) / 2, labelWidth, labelHeight, radius: labelHeight / 2)
            pen.fill(Colour(hex: 0x000000, alpha: 0.6))
            pen.font(.label, size: 17 * s)
            pen.text(chip, x: x + labelWidth / 2, middleY: h / 2, align: .centre, Palette.accent)
        }
    }
}
