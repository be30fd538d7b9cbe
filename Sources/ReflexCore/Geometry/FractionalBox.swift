/// A box in a picture in fractions of the picture's width and height (origin top left, so
/// the whole picture is 0, 0, 1, 1): a person found, a track's prediction, a crop. Fractions,
/// not pixels, so the analysis frame, the sensor frame and the screen share one box.
public struct FractionalBox: Sendable, Equatable {
    public var x: Double, y: Double, width: Double, height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }

    /// The box of `width` × `height` centred on `centreX`, `centreY`.
    public init(centreX: Double, centreY: Double, width: Double, height: Double) {
        self.init(x: centreX - width / 2, y: centreY - height / 2, width: width, height: height)
    }

    public var centreX: Double { x + width / 2 }
    public var centreY: Double { y + height / 2 }
    public var area: Double { max(width, 0) * max(height, 0) }

    public func contains(x px: Double, y py: Double) -> Bool {
        px >= x && px <= x + width && py >= y && py <= y + height
    }

    /// The overlap of two boxes over their union (0: apart, 1: the same box).
    public func overlap(_ other: FractionalBox) -> Double {
        let left = max(x, other.x), right = min(x + width, other.x + other.width)
        let top = max(y, other.y), bottom = min(y + height, other.y + other.height)
        let shared = max(right - left, 0) * max(bottom - top, 0)
        let union = area + other.area - shared
        return union > 0 ? shared / union : 0
    }

    /// How much of this box lies in `box` (0…1): a person wholly in a crop, a part inside a person.
    public func fraction(inside box: FractionalBox) -> Double {
        let shared = max(min(x + width, box.x + box.width) - max(x, box.x), 0)
            * max(min(y + height, box.y + box.height) - max(y, box.y), 0)
        return area > 0 ? shared / area : 0
    }

    /// The smallest box holding this one and `other`.
    public func union(_ other: FractionalBox) -> FractionalBox {
        let left = min(x, other.x), top = min(y, other.y)
        return FractionalBox(x: left, y: top, width: max(x + width, other.x + other.width) - left,
                        height: max(y + height, other.y + other.height) - top)
    }

    /// This box in the coordinates of `frame`, a part of the picture this box is in (a crop):
    /// where it shows in the cropped picture.
    public func within(_ frame: FractionalBox) -> FractionalBox {
        FractionalBox(x: (x - frame.x) / frame.width, y: (y - frame.y) / frame.height,
                 width: width / frame.width, height: height / frame.height)
    }

    /// This box (in fractions of a picture) on `rect`, the pixels the picture is drawn on,
    /// cut to it; nil where none of it is on `rect`.
    public func pixels(on rect: PixelRect) -> PixelRect? {
        let left = max(x, 0), right = min(x + width, 1), top = max(y, 0), bottom = min(y + height, 1)
        guard right > left, bottom > top else { return nil }
        let x0 = rect.x + Int((left * Double(rect.width)).rounded()), x1 = rect.x + Int((right * Double(rect.width)).rounded())
        let y0 = rect.y + Int((top * Double(rect.height)).rounded()), y1 = rect.y + Int((bottom * Double(rect.height)).rounded())
        guard x1 > x0, y1 > y0 else { return nil }
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// A box given in the coordinates of `frame` (a part of this box's picture), back in the
    /// whole picture's.
    public func placed(in frame: FractionalBox) -> FractionalBox {
        FractionalBox(x: frame.x + x * frame.width, y: frame.y + y * frame.height,
                 width: width * frame.width, height: height * frame.height)
    }
}
