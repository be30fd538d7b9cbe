import ReflexCore

/// The squares the detector sweeps to find people too small for the whole frame. The network
/// sees a square of `PersonDetector.inputSide` pixels; the whole 16:9 frame squeezed into it
/// leaves a person of a tenth of the frame's height about 30 pixels high, too few for a model
/// trained on pedestrians. So the sweep also looks at squares of the frame at two scales:
/// half the frame's height (a person of 5 % of it is then a tenth of the square: ~30 pixels in
/// the network) and the frame's whole height (people of 20–70 %), each scale overlapping its
/// neighbours so that a person cut by one square's edge is whole in the next.
/// Pure: boxes in fractions of the frame, square in pixels for the frame's `aspect`.
public enum DetectionTiles {
    /// The small squares' side, in the frame's heights.
    public static let smallSide = 0.5
    /// Neighbouring squares share at least this much of their side: half vertically (a person
    /// up to a quarter of the frame high is whole in one small square), a quarter across
    /// (people are narrower than they are tall).
    public static let verticalOverlap = 0.5
    public static let horizontalOverlap = 0.25

    /// Every square of the sweep: the whole frame first, then the frame-high squares, then the
    /// small ones row by row (fractions of the frame; `aspect`: its width over its height).
    public static func sweep(aspect: Double) -> [FractionalBox] {
        // (A frame no wider than high is its own frame-high square.)
        let whole = Framing.wholePicture
        return [whole] + (squares(side: 1, aspect: aspect) + squares(side: smallSide, aspect: aspect)).filter { $0 != whole }
    }

    /// Squares of `side` frame heights covering the frame, evenly spread, each overlapping its
    /// neighbours by at least the overlaps above. None where the frame is narrower than one.
    public static func squares(side: Double, aspect: Double) -> [FractionalBox] {
        let aspect = max(aspect, 1e-3)
        let width = min(side / aspect, 1), height = min(side, 1)
        let rows = count(covering: 1, side: height, overlap: verticalOverlap)
        let columns = count(covering: 1, side: width, overlap: horizontalOverlap)
        var squares: [FractionalBox] = []
        for row in 0..<rows {
            for column in 0..<columns {
                squares.append(FractionalBox(x: offset(column, of: columns, side: width), y: offset(row, of: rows, side: height),
                                        width: width, height: height))
            }
        }
        return squares
    }

    /// How many squares of `side` cover `length` with neighbours sharing `overlap` of a side.
    static func count(covering length: Double, side: Double, overlap: Double) -> Int {
        guard side < length - 1e-9 else { return 1 }
        let step = side * (1 - overlap)
        return Int(((length - side) / step - 1e-9).rounded(.up)) + 1
    }

    /// Where square `index` of `count` starts: the first at 0, the last at the far edge.
    static func offset(_ index: Int, of count: Int, side: Double) -> Double {
        count > 1 ? Double(index) * (1 - side) / Double(count - 1) : (1 - side) / 2
    }
}
