import ReflexCore

/// Paints review's single view into the panel's XRGB pixels: black, and a picture (a photo
/// fitted to the panel, a movie's picture) in the middle of it. The review thread decides
/// what to show; this only lays the pixels.
public enum ReviewPicturePainter {
    /// Around the picture, and the whole panel with nothing to show.
    public static let background: UInt32 = 0xFF00_0000

    /// The whole panel black.
    public static func clear(_ panel: UnsafeMutableBufferPointer<UInt32>) {
        panel.update(repeating: background)
    }

    /// Where a `width` × `height` picture lies, centred on a `panelWidth` × `panelHeight` panel.
    public static func place(width: Int, height: Int, panelWidth: Int, panelHeight: Int) -> PixelRect {
        PixelRect(x: (panelWidth - width) / 2, y: (panelHeight - height) / 2, width: width, height: height)
    }

    /// `pixels` (`width` × `height`, rows packed) copied centred onto `panel` (`panelWidth`
    /// pixels a row, `panelHeight` rows); a picture larger than the panel loses its edges.
    public static func paint(_ pixels: UnsafeBufferPointer<UInt32>, width: Int, height: Int,
                             on panel: UnsafeMutableBufferPointer<UInt32>, panelWidth: Int, panelHeight: Int) {
        let place = place(width: width, height: height, panelWidth: panelWidth, panelHeight: panelHeight)
        let (firstRow, endRow) = (max(0, -place.y), min(height, panelHeight - place.y))
        let (firstColumn, endColumn) = (max(0, -place.x), min(width, panelWidth - place.x))
        guard firstRow < endRow, firstColumn < endColumn, let source = pixels.baseAddress,
              let destination = panel.baseAddress, pixels.count >= width * height,
              panel.count >= panelWidth * panelHeight else { return }
        for row in firstRow..<endRow {
            (destination + (place.y + row) * panelWidth + place.x + firstColumn)
                .update(from: source + row * width + firstColumn, count: endColumn - firstColumn)
        }
    }
}
