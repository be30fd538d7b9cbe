import ReflexCore
import ReflexUI
import Testing

/// Review's single view: a picture centred on the panel, black around it, a picture larger
/// than the panel cropped to its middle rather than written past the panel's edges.
@Suite("Review picture painter")
struct ReviewPicturePainterTests {
    static func paint(width: Int, height: Int, panelWidth: Int = 8, panelHeight: Int = 6) -> [UInt32] {
        let picture = (0..<(width * height)).map { UInt32(0xFF00_0000 | (($0 % width) << 8) | ($0 / width)) }
        var panel = [UInt32](repeating: 0x1234, count: panelWidth * panelHeight)
        panel.withUnsafeMutableBufferPointer { destination in
            ReviewPicturePainter.clear(destination)
            picture.withUnsafeBufferPointer {
                ReviewPicturePainter.paint($0, width: width, height: height, on: destination, panelWidth: panelWidth,
                                           panelHeight: panelHeight)
            }
        }
        return panel
    }

    @Test func aSmallerPictureIsCentredOnBlack() {
        let panel = Self.paint(width: 4, height: 2)
        #expect(ReviewPicturePainter.place(width: 4, height: 2, panelWidth: 8, panelHeight: 6) == PixelRect(x: 2, y: 2, width: 4, height: 2))
        #expect(panel[2 * 8 + 2] == 0xFF00_0000 | (0 << 8) | 0, "its first pixel at (2, 2)")
        #expect(panel[3 * 8 + 5] == 0xFF00_0000 | (3 << 8) | 1, "its last at (5, 3)")
        #expect(panel[0] == ReviewPicturePainter.background && panel[5 * 8 + 7] == ReviewPicturePainter.background)
        #expect(panel.filter { $0 != ReviewPicturePainter.background }.count == 4 * 2 - 1, "nothing else painted (one pixel is black itself)")
    }

    @Test func aLargerPictureKeepsItsMiddle() {
        let panel = Self.paint(width: 10, height: 8)
        // Centred at (-1, -1): the panel's (0, 0) is the picture's (1, 1).
        #expect(panel[0] == 0xFF00_0000 | (1 << 8) | 1)
        #expect(panel[5 * 8 + 7] == 0xFF00_0000 | (8 << 8) | 6)
    }
}
