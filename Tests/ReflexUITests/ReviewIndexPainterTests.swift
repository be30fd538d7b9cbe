import ReflexCore
import ReflexUI
import Testing

/// Review's index painted into a small panel: pictures centred in their cells, a grey cell
/// where an item has none, the highlight in the accent, nothing outside the grid's band.
@Suite("Review index painter")
struct ReviewIndexPainterTests {
    static let (width, height) = (400, 300)

    static func paint(_ grid: ReviewGrid, _ draw: (ReviewIndexPainter) -> Void) -> [UInt32] {
        var panel = [UInt32](repeating: 0, count: width * height)
        panel.withUnsafeMutableBufferPointer { draw(ReviewIndexPainter(grid: grid, panel: $0.baseAddress!, width: width, height: height)) }
        return panel
    }

    @Test func aPictureIsCentredInItsCellAndAnEmptyCellIsGrey() {
        let grid = ReviewGrid(count: 6, highlighted: 0, screenWidth: Self.width, top: 20, bottom: 280, cellTarget: 120)
        let picture = [UInt32](repeating: 0xFF12_3456, count: 20 * 10)
        let panel = Self.paint(grid) { painter in
            picture.withUnsafeBufferPointer { painter.paintPicture($0, pictureWidth: 20, pictureHeight: 10, inCell: 1) }
            painter.paintEmptyCell(2)
        }
        let cell = grid.cell(1), x = cell.x + (cell.width - 20) / 2, y = cell.y + (cell.height - 10) / 2
        #expect(panel[y * Self.width + x] == 0xFF12_3456 && panel[(y + 9) * Self.width + x + 19] == 0xFF12_3456)
        #expect(panel[(y - 1) * Self.width + x] == 0 && panel[y * Self.width + x - 1] == 0, "only the picture's own pixels")
        let empty = grid.cell(2)
        #expect(panel[(empty.y + empty.height / 2) * Self.width + empty.x + empty.width / 2] == ReviewIndexPainter.emptyCell)
    }

    @Test func theHighlightIsFramedInTheAccent() {
        let grid = ReviewGrid(count: 6, highlighted: 4, screenWidth: Self.width, top: 20, bottom: 280, cellTarget: 120)
        let panel = Self.paint(grid) { $0.paintHighlight() }
        let cell = grid.cell(4)
        #expect(panel[(cell.y + cell.height / 2) * Self.width + cell.x - 1] == 0xFF00_0000 | Palette.accentRGB)
        #expect(panel[(cell.y + cell.height / 2) * Self.width + cell.x + cell.width / 2] == 0, "the cell itself is left alone")
    }

    @Test func nothingIsPaintedOutsideTheGridsBand() {
        // Scrolled so that the second row is cut by the band's bottom edge.
        let grid = ReviewGrid(count: 12, highlighted: 0, screenWidth: Self.width, top: 40, bottom: 200, cellTarget: 120)
        let panel = Self.paint(grid) { painter in
            for index in 0..<12 { painter.paintEmptyCell(index) }
        }
        #expect(panel[0..<(40 * Self.width)].allSatisfy { $0 == 0 }, "above the band")
        #expect(panel[(200 * Self.width)...].allSatisfy { $0 == 0 }, "below the band")
        #expect(panel[(40 * Self.width)..<(200 * Self.width)].contains(ReviewIndexPainter.emptyCell))
    }
}
