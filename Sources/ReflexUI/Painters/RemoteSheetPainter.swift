import CCairo
import ReflexCore

/// The remote's sheet: what a phone needs, large enough for its camera to read from arm's
/// length. Left, the camera's own network (a QR code the phone joins with, its name and
/// passphrase to type); right, the page (a QR code carrying the pairing code, the address and
/// the code to type). While the remote starts, cannot start, or pairing is locked, it says so.
struct RemoteSheetPainter {
    let layout: ScreenLayout

    /// Centred on the screen, below the HUD bar: as wide as two codes side by side need.
    static func area(_ layout: ScreenLayout) -> PixelRect {
        let margin = Int(layout.pixels(24).rounded())
        let top = layout.topBar.height + margin
        let width = min(layout.width - 2 * margin, Int(layout.pixels(960).rounded()))
        let height = min(layout.height - top - margin, Int(layout.pixels(600).rounded()))
        return PixelRect(x: (layout.width - width) / 2, y: top, width: width, height: height)
    }

    func paint(_ report: RemoteReport, on canvas: CairoCanvas, fonts: FontLibrary) {
        canvas.clear()
        let pen = Pen(canvas, fonts: fonts)
        let s = layout.scale
        let w = Double(canvas.width), h = Double(canvas.height)
        pen.roundedRect(0, 0, w, h, radius: 18 * s)
        pen.fill(Colour(hex: 0x0F1012, alpha: 0.94))
        pen.font(.title, size: 26 * s)
        pen.text(InterfaceText.remoteTitle, x: 28 * s, middleY: 38 * s, Palette.text)
        pen.font(.label, size: 17 * s)
        pen.text(InterfaceText.remoteClose, x: w - 28 * s, middleY: 38 * s, align: .trailing, Palette.secondaryText)
        switch report.state {
        case .serving: paintCodes(report, pen: pen, width: w, height: h)
        case .starting: message(InterfaceText.remoteStarting, pen: pen, width: w, height: h)
        case .failed(let why), .unavailable(let why): message(why, pen: pen, width: w, height: h)
        case .off: message(InterfaceText.remoteOff, pen: pen, width: w, height: h)
        }
        canvas.finish()
    }

    private func message(_ text: String, pen: Pen, width: Double, height: Double) {
        pen.font(.label, size: 22 * layout.scale)
        pen.text(text, x: width / 2, middleY: height / 2, align: .centre, Palette.text)
    }

    private func paintCodes(_ report: RemoteReport, pen: Pen, width: Double, height: Double) {
        let s = layout.scale
        let top = 76 * s, footer = 56 * s
        // Each code as large as its half allows, with the text under it.
        let column = width / 2
        let textLines = 3.0 * 30 * s
        let side = min(column - 56 * s, height - top - footer - textLines)
        if let network = report.network, let join = report.joinCode {
            paintColumn(step: "1", title: InterfaceText.remoteJoin, code: join, lines: [network.name, network.passphrase],
                        x: 0, top: top, width: column, side: side, pen: pen)
        } else {
            pen.font(.label, size: 20 * s)
            pen.text(InterfaceText.remoteSameNetwork, x: column / 2, middleY: top + side / 2, align: .centre, Palette.secondaryText)
        }
        if let page = report.pageCode, let address = report.pageAddress, let code = report.pairingCode {
            paintColumn(step: report.network == nil ? "" : "2", title: InterfaceText.remoteOpen, code: page,
                        lines: [address, InterfaceText.remoteCode(code)], x: column, top: top, width: column, side: side, pen: pen)
        }
        pen.font(.label, size: 18 * s)
        let foot = report.lockedSeconds.map { InterfaceText.remoteLocked(seconds: $0) } ?? InterfaceText.remotePhones(report.phones)
        pen.text(foot, x: width / 2, middleY: height - footer / 2, align: .centre,
                 report.lockedSeconds != nil ? Palette.accent : Palette.secondaryText)
    }

    private func paintColumn(step: String, title: String, code: QRCode, lines: [String], x: Double, top: Double, width: Double,
                             side: Double, pen: Pen) {
        let s = layout.scale
        pen.font(.title, size: 20 * s)
        pen.text(step.isEmpty ? title : step + "  " + title, x: x + width / 2, middleY: top, align: .centre, Palette.text)
        paintCode(code, x: x + (width - side) / 2, y: top + 20 * s, side: side, pen: pen)
        for (index, line) in lines.enumerated() {
            pen.font(index == 0 ? .title : .digits, size: 22 * s)
            pen.text(line, x: x + width / 2, middleY: top + 20 * s + side + (24 + Double(index) * 30) * s, align: .centre,
                     index == 0 ? Palette.text : Palette.accent)
        }
    }

    /// Dark modules on white with the quiet zone a reader needs, each module whole pixels so
    /// the code stays sharp.
    private func paintCode(_ code: QRCode, x: Double, y: Double, side: Double, pen: Pen) {
        let modulesAcross = code.size + 2 * QRCode.quietZone
        let module = max(1, (side / Double(modulesAcross)).rounded(.down))
        let drawn = module * Double(modulesAcross)
        let left = (x + (side - drawn) / 2).rounded(.down), top = (y + (side - drawn) / 2).rounded(.down)
        cairo_rectangle(pen.context, left, top, drawn, drawn)
        pen.fill(Colour(hex: 0xFFFFFF))
        for row in 0..<code.size {
            for column in 0..<code.size where code.isDark(x: column, y: row) {
                cairo_rectangle(pen.context, left + Double(column + QRCode.quietZone) * module,
                                top + Double(row + QRCode.quietZone) * module, module, module)
            }
        }
        pen.fill(Colour(hex: 0x000000))
    }
}
