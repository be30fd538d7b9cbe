import ReflexCore

/// Paints review's index into the panel's XRGB pixels (`width` × `height`, rows `width`
/// apart): each visible item's small picture centred in its cell, a grey cell for an item
/// with none, the items' badges, and the highlighted cell framed in the palette's accent.
/// Every row is clipped to the grid's band, so the index scrolls under the bars above and
/// below it. The review thread decides what to show; this only lays the pixels.
public struct ReviewIndexPainter {
    /// A cell whose item has no picture to show.
    public static let emptyCell: UInt32 = 0xFF26_2626
    /// The highlight's frame: the interface's one accent, opaque.
    public static let highlight: UInt32 = 0xFF00_0000 | Palette.accentRGB

    private let grid: ReviewGrid
    private let panel: UnsafeMutablePointer<UInt32>
    private let width: Int
    private let height: Int

    public init(grid: ReviewGrid, panel: UnsafeMutablePointer<UInt32>, width: Int, height: Int) {
        (self.grid, self.panel, self.width, self.height) = (grid, panel, width, height)
    }

    /// Item `index`'s picture (`pictureWidth` × `pictureHeight`, rows packed) centred in its cell.
    public func paintPicture(_ pixels: UnsafeBufferPointer<UInt32>, pictureWidth: Int, pictureHeight: Int, inCell index: Int) {
        let cell = grid.cell(index)
        let x = cell.x + (cell.width - pictureWidth) / 2, y = cell.y + (cell.height - pictureHeight) / 2
        let (firstRow, endRow) = (max(0, grid.top - y, -y), min(pictureHeight, grid.bottom - y, height - y))
        let (firstColumn, endColumn) = (max(0, -x), min(pictureWidth, width - x))
        guard firstRow < endRow, firstColumn < endColumn, let source = pixels.baseAddress else { return }
        for row in firstRow..<endRow {
            (panel + (y + row) * width + x + firstColumn)
                .update(from: source + row * pictureWidth + firstColumn, count: endColumn - firstColumn)
        }
    }

    /// Item `index`'s cell with nothing to show in it.
    public func paintEmptyCell(_ index: Int) {
        fill(grid.cell(index), Self.emptyCell)
    }

    /// What item `index` is (`IndexBadges.kinds`), in its cell's corners.
    public func paintBadges(_ kinds: [IndexBadges.Kind], inCell index: Int, from badges: IndexBadges) {
        for kind in kinds {
            badges.lay(kind, on: grid.cell(index), into: panel, width: width, top: grid.top, bottom: min(grid.bottom, height))
        }
    }

    /// The highlighted cell framed in the accent, a little outside it.
    public func paintHighlight() {
        let cell = grid.cell(grid.highlighted), thick = max(3, grid.gap / 2 + 1)
        for side in [PixelRect(x: cell.x - thick, y: cell.y - thick, width: cell.width + 2 * thick, height: thick),
                     PixelRect(x: cell.x - thick, y: cell.y + cell.height, width: cell.width + 2 * thick, height: thick),
                     PixelRect(x: cell.x - thick, y: cell.y, width: thick, height: cell.height),
                     PixelRect(x: cell.x + cell.width, y: cell.y, width: thick, height: cell.height)] {
            fill(side, Self.highlight)
        }
    }

    /// `rect` filled with `colour`, within the screen and the grid's band.
    private func fill(_ rect: PixelRect, _ colour: UInt32) {
        let x0 = max(rect.x, 0), x1 = min(rect.x + rect.width, width)
        let y0 = max(rect.y, grid.top, 0), y1 = min(rect.y + rect.height, grid.bottom, height)
        guard x0 < x1, y0 < y1 else { return }
        for y in y0..<y1 {
            (panel + y * width + x0).update(repeating: colour, count: x1 - x0)
        }
    }
}
