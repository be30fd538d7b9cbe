import ReflexCore
import Testing

/// Review's index (issue 34): cells across the panel, rows that scroll under the finger within
/// their bounds, a highlight the dials move that is always scrolled into view.
@Suite struct ReviewGridTests {
    /// A card of `count` on the 1280x800 panel, between review's bars.
    static func grid(_ count: Int, highlighted: Int = 0) -> ReviewGrid {
        ReviewGrid(count: count, highlighted: highlighted, screenWidth: 1280, top: 88, bottom: 712, cellTarget: 196)
    }

    @Test func cellsFillTheWidthInRowsNewestFirst() {
        let grid = Self.grid(1000)
        #expect(grid.columns == 6 && grid.rows == 167)
        #expect(grid.cellWidth * 6 + grid.gap * 7 <= 1280 && grid.cellWidth * 6 + grid.gap * 7 > 1270)
        #expect(grid.cellHeight == grid.cellWidth * 3 / 4)
        #expect(grid.cell(0).x == grid.gap && grid.cell(0).y == 88 + grid.gap)
        #expect(grid.cell(7).y == grid.cell(1).y + grid.cellHeight + grid.gap && grid.cell(7).x == grid.cell(1).x)
        #expect(grid.visibleItems == 0..<24, "four rows in the band")
        #expect(grid.item(atX: grid.cell(8).x + 5, y: grid.cell(8).y + 5) == 8)
        #expect(grid.item(atX: grid.cell(8).x - 2, y: grid.cell(8).y + 5) == nil, "the gap is no cell")
        #expect(grid.item(atX: 100, y: 40) == nil, "above the band")
    }

    @Test func aDragScrollsWithinTheRows() {
        var grid = Self.grid(1000)
        grid.drag(by: 100)
        #expect(grid.scroll == 0, "nothing above the newest")
        grid.drag(by: -300)
        #expect(grid.scroll == 300 && grid.cell(0).y == 88 + grid.gap - 300)
        grid.drag(by: -1_000_000)
        #expect(grid.scroll == grid.mostScroll)
        let last = grid.cell(999)
        #expect(last.y + last.height + grid.gap == 712, "the last row's foot at the band's foot")
        #expect(grid.visibleItems.contains(999))
        // A card of one row does not scroll.
        var few = Self.grid(4)
        few.drag(by: -200)
        #expect(few.scroll == 0 && few.mostScroll == 0)
    }

    @Test func theHighlightIsKeptInView() {
        var grid = Self.grid(1000)
        grid.move(6 * 10)
        #expect(grid.highlighted == 60)
        let cell = grid.cell(60)
        #expect(cell.y >= 88 && cell.y + cell.height <= 712, "scrolled down to it")
        grid.move(-1_000)
        #expect(grid.highlighted == 0 && grid.scroll == 0)
        grid.move(5_000)
        #expect(grid.highlighted == 999 && grid.scroll == grid.mostScroll)
        // Opened on an old item, the grid starts scrolled to it.
        let opened = Self.grid(1000, highlighted: 500)
        #expect(opened.visibleItems.contains(500) && opened.scroll > 0)
        #expect(Self.grid(0).visibleItems.isEmpty)
    }
}
