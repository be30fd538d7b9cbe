/// Where Auto exposure meters when the photographer taps the picture: the centre of a square
/// spot, in fractions of the sensor's whole frame (0…1 across and down, upright), so it stays
/// on the same subject whatever the zoom and the panel. Nil in the settings: the whole frame.
public struct MeteringPoint: Sendable, Hashable {
    /// The spot's side, as a share of the frame's height: about a sixth, an "area" spot as on
    /// Fujifilm and Sony bodies, large enough for steady statistics on a 640×360 preview.
    public static let side = 0.16

    public let x: Double
    public let y: Double

    /// A point inside the frame (clamped so the whole spot lies inside).
    public init(x: Double, y: Double) {
        self.x = min(max(x.isFinite ? x : 0.5, 0), 1)
        self.y = min(max(y.isFinite ? y : 0.5, 0), 1)
    }

    /// The spot in the pixels of a `width`×`height` frame, kept inside it.
    public func rect(width: Int, height: Int) -> PixelRect {
        let side = max(Int((Double(height) * MeteringPoint.side).rounded()), 2)
        let left = min(max(Int((x * Double(width)).rounded()) - side / 2, 0), max(width - side, 0))
        let top = min(max(Int((y * Double(height)).rounded()) - side / 2, 0), max(height - side, 0))
        return PixelRect(x: left, y: top, width: min(side, width), height: min(side, height))
    }

    /// The point under a touch at (`touchX`, `touchY`) on a picture shown in `viewfinder`,
    /// zoomed `zoom` times about its centre; nil outside the picture.
    public static func under(touchX: Double, touchY: Double, viewfinder: PixelRect, zoom: Double) -> MeteringPoint? {
        guard viewfinder.width > 0, viewfinder.height > 0 else { return nil }
        let fx = (touchX - Double(viewfinder.x)) / Double(viewfinder.width)
        let fy = (touchY - Double(viewfinder.y)) / Double(viewfinder.height)
        guard (0...1).contains(fx), (0...1).contains(fy) else { return nil }
        let z = max(zoom, 1)
        return MeteringPoint(x: 0.5 + (fx - 0.5) / z, y: 0.5 + (fy - 0.5) / z)
    }

    /// Where the spot is drawn on a picture shown in `viewfinder` at `zoom` about its centre:
    /// its square in panel pixels (clipped to the picture); nil when the zoom has left it outside.
    public func box(viewfinder: PixelRect, zoom: Double) -> PixelRect? {
        box(viewfinder: viewfinder, framing: Framing(zoom: zoom))
    }

    /// The same for a picture framed by `framing`, whose crop auto-zoom may have moved off
    /// the middle: the square stays on the part of the scene it meters.
    public func box(viewfinder: PixelRect, framing: Framing) -> PixelRect? {
        let z = max(framing.zoom, 1)
        let (middleX, middleY) = framing.zoom > 1 ? (framing.centreX, framing.centreY) : (0.5, 0.5)
        let centreX = Double(viewfinder.x) + (0.5 + (x - middleX) * z) * Double(viewfinder.width)
        let centreY = Double(viewfinder.y) + (0.5 + (y - middleY) * z) * Double(viewfinder.height)
        let side = MeteringPoint.side * z * Double(viewfinder.height)
        let left = max(Int((centreX - side / 2).rounded()), viewfinder.x)
        let top = max(Int((centreY - side / 2).rounded()), viewfinder.y)
        let right = min(Int((centreX + side / 2).rounded()), viewfinder.x + viewfinder.width)
        let bottom = min(Int((centreY + side / 2).rounded()), viewfinder.y + viewfinder.height)
        guard right - left >= 4, bottom - top >= 4 else { return nil }
        return PixelRect(x: left, y: top, width: right - left, height: bottom - top)
    }
}
