import ReflexCore
import ReflexISP
import Testing

/// The sweep's squares: a small person is large enough in the network's input in one of
/// them, wherever they stand.
@Suite("Detection tiles")
struct DetectionTilesTests {
    static let wide = 16.0 / 9
    /// The network's input side (PersonDetector.inputSide, in ReflexVision).
    static let inputSide = 300.0

    @Test func squaresAreSquareInPixelsAndCoverTheFrame() {
        for aspect in [Self.wide, 4.0 / 3, 1.0] {
            for square in DetectionTiles.sweep(aspect: aspect).dropFirst() {
                #expect(abs(square.width * aspect - square.height) < 1e-9 || square.width == 1, "\(square) at \(aspect)")
                #expect(square.x >= -1e-12 && square.x + square.width <= 1 + 1e-12)
                #expect(square.y >= -1e-12 && square.y + square.height <= 1 + 1e-12)
            }
            let small = DetectionTiles.squares(side: DetectionTiles.smallSide, aspect: aspect)
            for x in stride(from: 0.0, through: 1.0, by: 0.05) {
                for y in stride(from: 0.0, through: 1.0, by: 0.05) {
                    #expect(small.contains { $0.contains(x: x, y: y) }, "(\(x), \(y)) at \(aspect)")
                }
            }
        }
    }

    @Test func aPersonOfAtwentiethOfTheFrameIsThirtyPixelsInASmallSquare() {
        let square = DetectionTiles.squares(side: DetectionTiles.smallSide, aspect: Self.wide)[0]
        #expect(0.05 / square.height * Self.inputSide >= 30 - 1e-9)
        #expect(DetectionTiles.squares(side: DetectionTiles.smallSide, aspect: Self.wide).count == 15, "3 rows of 5")
        #expect(DetectionTiles.squares(side: 1, aspect: Self.wide).count == 3)
        #expect(DetectionTiles.sweep(aspect: Self.wide).first == Framing.wholePicture)
    }

    @Test func aPersonUpToAQuarterOfTheFrameHighIsWholeInSomeSmallSquare() {
        let small = DetectionTiles.squares(side: DetectionTiles.smallSide, aspect: Self.wide)
        // A standing person: their width 0.4 of their height, in pixels.
        let height = 0.25, width = height * 0.4 / Self.wide
        for x in stride(from: 0.0, through: 1 - width, by: 0.01) {
            for y in stride(from: 0.0, through: 1 - height, by: 0.01) {
                let person = FractionalBox(x: x, y: y, width: width, height: height)
                let whole = small.contains { square in
                    person.x >= square.x - 1e-9 && person.x + person.width <= square.x + square.width + 1e-9
                        && person.y >= square.y - 1e-9 && person.y + person.height <= square.y + square.height + 1e-9
                }
                #expect(whole, "\(person) is cut by every square")
            }
        }
    }
}
