import ReflexCore
import CCairo

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
        if state.gps != .off {
            gpsIcon(state.gps, right: right, middleY: h / 2, pen: pen)
            right -= 34 * s
        }
        if let recording = state.recording { recordingTime(recording, right: right, middleY: h / 2, pen: pen) }
        canvas.finish()
    }

    /// A red dot, the time recorded, and the card's time left (smaller), ending at `right`.
    private func recordingTime(_ recording: RecordingIndicator, right: Double, middleY: Double, pen: Pen) {
        let s = layout.scale
        var x = right
        if let left = recording.secondsLeft {
            pen.font(.title, size: 15 * s)
            let text = Formatting.recordingTimeLeft(left) + " left"
            x -= pen.textWidth(text)
            pen.text(text, x: x, middleY: middleY, Palette.secondaryText)
            x -= 14 * s
        }
        pen.font(.digits, size: 27 * s)
        let elapsed = Formatting.recordingTime(Double(recording.elapsedSeconds))
        x -= pen.textWidth(elapsed)
        pen.text(elapsed, x: x, middleY: middleY, Palette.text)
        let radius = 8 * s
        cairo_arc(pen.context, x - 10 * s - radius, middleY, radius, 0, 2 * Double.pi)
        pen.fill(Palette.recording)
    }

    /// A location pin left of the indicators: filled with a fix, an outline while searching,
    /// an outline struck through in the accent when there is no GPS to ask.
    private func gpsIcon(_ indicator: GPSIndicator, right: Double, middleY: Double, pen: Pen) {
        let s = layout.scale
        let radius = 8 * s
        let centreX = right - 4 * s - radius, centreY = middleY - 4 * s
        let colour = indicator == .unavailable ? Palette.accent : Palette.text
        // The pin: the head's circle, open at the bottom, running down to the point.
        cairo_new_path(pen.context)
        cairo_arc(pen.context, centreX, centreY, radius, Double.pi * 0.75, Double.pi * 0.25)
        cairo_line_to(pen.context, centreX, centreY + radius * 2)
        cairo_close_path(pen.context)
        if indicator == .fix {
            pen.fill(colour)
            cairo_arc(pen.context, centreX, centreY, radius * 0.38, 0, 2 * Double.pi)
            pen.fill(Palette.surface)
        } else {
            pen.stroke(colour, width: 2 * s)
            cairo_arc(pen.context, centreX, centreY, radius * 0.38, 0, 2 * Double.pi)
            pen.stroke(colour, width: 1.5 * s)
        }
        if indicator == .unavailable {
            pen.line(centreX - radius * 1.3, centreY + radius * 2, centreX + radius * 1.3, centreY - radius * 1.2,
                     colour, width: 2.5 * s)
        }
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
