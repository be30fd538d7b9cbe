/// Review's index: the card's items as a grid of thumbnails, newest first, in rows that scroll
/// under the finger (by pixels, so a drag follows it) and a highlight the dials and keys move,
/// scrolling it into view. Pure: the review thread draws it, the rules hit-test it.
public struct ReviewGrid: Sendable, Equatable {
    public let count: Int
    public let columns: Int
    /// A cell and the gap between cells, in pixels.
    public let cellWidth: Int, cellHeight: Int, gap: Int
    /// The band of the screen the grid shows in (between review's bars).
    public let top: Int, bottom: Int
    public let screenWidth: Int
    /// The item highlighted (its index, newest first).
    public private(set) var highlighted: Int
    /// How far the rows are scrolled up, in pixels (0: the first row at the top).
    public private(set) var scroll: Int

    /// A grid of `count` items over `screenWidth` and the band `top`..<`bottom`, about `cellTarget`
    /// pixels wide a cell, with `highlighted` in view.
    public init(count: Int, highlighted: Int, screenWidth: Int, top: Int, bottom: Int, cellTarget: Int) {
        self.count = max(count, 0)
        self.screenWidth = max(screenWidth, 1)
        (self.top, self.bottom) = (top, max(bottom, top + 1))
        gap = max(2, cellTarget / 20)
        columns = max(1, (self.screenWidth - gap) / (cellTarget + gap))
        cellWidth = (self.screenWidth - gap * (columns + 1)) / columns
        cellHeight = cellWidth * 3 / 4
        self.highlighted = min(max(highlighted, 0), max(count - 1, 0))
        scroll = 0
        keepHighlightInView()
    }

    public var rows: Int { (count + columns - 1) / columns }
    private var rowPitch: Int { cellHeight + gap }
    /// The farthest the rows scroll: the last row's foot at the band's foot.
    public var mostScroll: Int { max(0, rows * rowPitch + gap - (bottom - top)) }

    /// Where item `index`'s cell is on the screen now (it may be partly or wholly outside the band).
    public func cell(_ index: Int) -> PixelRect {
        let (row, column) = (index / columns, index % columns)
        return PixelRect(x: gap + column * (cellWidth + gap), y: top + gap + row * rowPitch - scroll, width: cellWidth,
                         height: cellHeight)
    }

    /// The items with a cell at least partly in the band.
    public var visibleItems: Range<Int> {
        guard count > 0 else { return 0..<0 }
        let firstRow = max(0, (scroll - gap) / rowPitch), lastRow = (scroll + bottom - top) / rowPitch
        return min(firstRow * columns, count)..<min((lastRow + 1) * columns, count)
    }

    /// The item whose cell is under screen point (`x`, `y`), if any.
    public func item(atX x: Int, y: Int) -> Int? {
        guard y >= top && y < bottom else { return nil }
        for index in visibleItems where cell(index).contains(x, y) { return index }
        return nil
    }

    /// The rows moved by a finger's `dy` pixels (down: back towards the newest).
    public mutating func drag(by dy: Int) { scroll = min(max(scroll - dy, 0), mostScroll) }

    /// The highlight moved by `steps` items (a dial, the arrows; a row is `columns` steps).
    public mutating func move(_ steps: Int) {
        guard count > 0 else { return }
        highlighted = min(max(highlighted + steps, 0), count - 1)
        keepHighlightInView()
    }

    /// The highlighted cell scrolled wholly into the band.
    private mutating func keepHighlightInView() {
        guard count > 0 else { return }
        let rect = cell(highlighted)
        if rect.y < top + gap { scroll -= top + gap - rect.y }
        if rect.y + rect.height > bottom - gap { scroll += rect.y + rect.height - (bottom - gap) }
        scroll = min(max(scroll, 0), mostScroll)
    }
}

extension PixelRect {
    /// Whether (`px`, `py`) is inside.
    func contains(_ px: Int, _ py: Int) -> Bool { px >= x && px < x + width && py >= y && py < y + height }
}
