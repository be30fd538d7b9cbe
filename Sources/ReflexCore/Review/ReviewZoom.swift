/// How review's single view shows a photo: at which scale (screen pixels to a photo pixel,
/// from `fitScale`, the whole photo inside the screen, up to `mostScale`, 200 %) and which
/// point of the photo is at the screen's centre. A double tap goes from the whole photo to
/// 100 % centred where it was tapped, and back; a pinch scales about its own centre, the
/// point under the fingers staying under them; the second dial steps through 25, 50, 100 and
/// 200 %; a drag pans. The photo never shows a gap at an edge it could fill. Pure: the view
/// draws `visible`, decoded from the file at that detail (never an upscaled screen image).
public struct ReviewZoom: Sendable, Equatable {
    /// The photo upright, in its file's pixels, and the screen.
    public let photoWidth: Int, photoHeight: Int
    public let screenWidth: Int, screenHeight: Int
    public private(set) var scale: Double
    /// The photo's point at the screen's centre, in photo pixels.
    public private(set) var centreX: Double, centreY: Double

    public static let mostScale = 2.0
    /// The dial's steps above the whole photo.
    public static let dialScales = [0.25, 0.5, 1, 2]

    public init(photoWidth: Int, photoHeight: Int, screenWidth: Int, screenHeight: Int) {
        (self.photoWidth, self.photoHeight) = (max(photoWidth, 1), max(photoHeight, 1))
        (self.screenWidth, self.screenHeight) = (max(screenWidth, 1), max(screenHeight, 1))
        scale = 1
        (centreX, centreY) = (Double(self.photoWidth) / 2, Double(self.photoHeight) / 2)
        scale = fitScale
    }

    /// The whole photo inside the screen.
    public var fitScale: Double {
        min(Double(screenWidth) / Double(photoWidth), Double(screenHeight) / Double(photoHeight))
    }

    public var isWholePhoto: Bool { scale <= fitScale * 1.0001 }

    /// The photo's point at screen point (`x`, `y`).
    public func photoPoint(screenX x: Double, y: Double) -> (x: Double, y: Double) {
        (centreX + (x - Double(screenWidth) / 2) / scale, centreY + (y - Double(screenHeight) / 2) / scale)
    }

    /// The part of the photo on screen, in photo pixels (all of it when it fits).
    public var visible: PixelRect {
        let w = min(Double(screenWidth) / scale, Double(photoWidth)), h = min(Double(screenHeight) / scale, Double(photoHeight))
        let x = min(max(centreX - w / 2, 0), Double(photoWidth) - w), y = min(max(centreY - h / 2, 0), Double(photoHeight) - h)
        return PixelRect(x: Int(x.rounded(.down)), y: Int(y.rounded(.down)), width: Int(w.rounded(.up)), height: Int(h.rounded(.up)))
    }

    /// Whole photo ⇄ 100 % centred on the tapped point.
    public mutating func doubleTap(screenX x: Double, y: Double) {
        if isWholePhoto {
            let point = photoPoint(screenX: x, y: y)
            scale = max(1, fitScale)
            (centreX, centreY) = point
        } else {
            scale = fitScale
        }
        keepFilled()
    }

    /// A pinch that changed the fingers' distance by `factor`, about screen point (`x`, `y`).
    public mutating func pinch(by factor: Double, screenX x: Double, y: Double) {
        guard factor > 0 else { return }
        let point = photoPoint(screenX: x, y: y)
        scale = min(max(scale * factor, fitScale), max(ReviewZoom.mostScale, fitScale))
        centreX = point.x - (x - Double(screenWidth) / 2) / scale
        centreY = point.y - (y - Double(screenHeight) / 2) / scale
        keepFilled()
    }

    /// The second dial: `detents` steps up (positive) or down the scales above the whole photo.
    public mutating func turn(_ detents: Int) {
        let ladder = [fitScale] + ReviewZoom.dialScales.filter { $0 > fitScale * 1.0001 }
        let here = ladder.lastIndex { $0 <= scale * 1.0001 } ?? 0
        scale = ladder[min(max(here + detents, 0), ladder.count - 1)]
        keepFilled()
    }

    /// A drag by (`dx`, `dy`) screen pixels: the photo follows the finger.
    public mutating func drag(byScreenX dx: Double, y dy: Double) {
        centreX -= dx / scale
        centreY -= dy / scale
        keepFilled()
    }

    /// The centre kept where the photo covers the screen on every side it can.
    private mutating func keepFilled() {
        func clamp(_ centre: Double, photo: Int, screen: Int) -> Double {
            let half = Double(screen) / scale / 2
            return half * 2 >= Double(photo) ? Double(photo) / 2 : min(max(centre, half), Double(photo) - half)
        }
        centreX = clamp(centreX, photo: photoWidth, screen: screenWidth)
        centreY = clamp(centreY, photo: photoHeight, screen: screenHeight)
    }
}
