import ReflexCore
import CCairo

/// Draws the HUD bar: the exposure readout at the left, the indicators at the right.
/// It never fades: the photographer reads the exposure at any moment.
struct TopBarPainter {
    let layout: ScreenLayout

    /// Paints `content`; over a canvas that shows `painted` with the same items and the same
    /// indicators, only the readout's cells whose value changed (a dial's detent costs one
    /// cell, not the bar), unless the cells reach `rightItemsLeft`, where the chips, the GPS
    /// pin and the recording time painted begin. Returns where they begin now.
    @discardableResult
    func paint(_ content: TopBarContent, over painted: TopBarContent?, rightItemsLeft: Double = 0, on canvas: CairoCanvas,
               fonts: FontLibrary) -> Double {
        let pen = Pen(canvas, fonts: fonts)
        let edges = cellEdges(content.items)
        if let painted, painted.sameExceptValues(content), edges.last! <= rightItemsLeft {
            for (index, (item, before)) in zip(content.items, painted.items).enumerated() {
                let x = edges[index], next = edges[index + 1]
                if item != before {
                    // The cell from its left edge (the bar's, for the first) to the next cell,
                    // above the hairline: cleared, filled again and written.
                    let left = index == 0 ? 0 : Int(x.rounded(.down))
                    let cell = PixelRect(x: left, y: 0, width: Int(next.rounded(.down)) - left, height: canvas.height - 1)
                    canvas.clear(cell)
                    cairo_rectangle(pen.context, Double(cell.x), 0, Double(cell.width), Double(cell.height))
                    pen.fill(Palette.surface)
                    paintItem(item, x: x, pen: pen)
                }
            }
            canvas.finish()
            return rightItemsLeft
        }
        canvas.clear()
        let s = layout.scale
        let w = Double(canvas.width), h = Double(canvas.height)
        cairo_rectangle(pen.context, 0, 0, w, h)
        pen.fill(Palette.surface)
        pen.line(0, h - 0.5, w, h - 0.5, Palette.hairline, width: 1)

        for (item, x) in zip(content.items, edges) { paintItem(item, x: x, pen: pen) }

        var right = w - 20 * s
        pen.font(.title, size: 15 * s)
        for indicator in content.indicators.reversed() {
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
        if content.gps != .off {
            gpsIcon(content.gps, right: right, middleY: h / 2, pen: pen)
            right -= 34 * s
        }
        if content.usb == .connected || content.usb == .unavailable {
            usbIcon(crossedOut: content.usb == .unavailable, right: right, middleY: h / 2, pen: pen)
            right -= 34 * s
        }
        if let recording = content.recording { right = recordingTime(recording, right: right, middleY: h / 2, pen: pen) }
        canvas.finish()
        return right
    }

    /// Where each readout cell begins, and (last) where the last one ends.
    private func cellEdges(_ items: [InterfaceText.Item]) -> [Double] {
        var edges = [20 * layout.scale]
        for item in items { edges.append(edges.last! + TopBarPainter.columnWidth(item.label) * layout.scale) }
        return edges
    }

    /// One readout item: its label above its value, from `x`.
    private func paintItem(_ item: InterfaceText.Item, x: Double, pen: Pen) {
        let s = layout.scale
        pen.font(.title, size: 12 * s)
        pen.text(item.label, x: x, middleY: 18 * s, item.manual ? Palette.accent : Palette.secondaryText)
        pen.font(.digits, size: 27 * s)
        pen.text(item.value, x: x, middleY: 42 * s, Palette.text)
    }

    /// A red dot, the time recorded, and the card's time left (smaller), ending at `right`;
    /// returns where the dot begins.
    private func recordingTime(_ recording: RecordingIndicator, right: Double, middleY: Double, pen: Pen) -> Double {
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
        return x - 10 * s - 2 * radius
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

    /// USB's trident (a stem, a circle at its foot, three prongs: round, square, arrow) while a
    /// computer is connected; struck through in the accent when USB could not be offered.
    private func usbIcon(crossedOut: Bool, right: Double, middleY: Double, pen: Pen) {
        let s = layout.scale
        let colour = crossedOut ? Palette.accent : Palette.text
        let x = right - 14 * s, top = middleY - 12 * s, bottom = middleY + 9 * s
        pen.line(x, top + 4 * s, x, bottom, colour, width: 2 * s)
        // The arrow at the top.
        cairo_new_path(pen.context)
        cairo_move_to(pen.context, x, top)
        cairo_line_to(pen.context, x - 4 * s, top + 5 * s)
        cairo_line_to(pen.context, x + 4 * s, top + 5 * s)
        cairo_close_path(pen.context)
        pen.fill(colour)
        // The left prong to a circle, the right one to a square.
        pen.line(x, middleY + 3 * s, x - 7 * s, middleY - 2 * s, colour, width: 2 * s)
        cairo_arc(pen.context, x - 7 * s, middleY - 4 * s, 2.5 * s, 0, 2 * Double.pi)
        pen.fill(colour)
        pen.line(x, middleY, x + 7 * s, middleY - 5 * s, colour, width: 2 * s)
        cairo_rectangle(pen.context, x + 5 * s, middleY - 9 * s, 4.5 * s, 4.5 * s)
        pen.fill(colour)
        cairo_arc(pen.context, x, bottom + 1 * s, 3 * s, 0, 2 * Double.pi)
        pen.fill(colour)
        if crossedOut { pen.line(x - 11 * s, bottom + 2 * s, x + 11 * s, top, colour, width: 2.5 * s) }
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
