/// What the picture shows of the lens's view: the zoom factor and the crop's centre, in
/// fractions of the zoom-1 picture (0.5, 0.5 is the middle). The manual zoom keeps the crop
/// centred; auto-zoom moves it to keep its subject framed.
public struct Framing: Sendable, Equatable {
    public var zoom: Double
    public var centreX: Double
    public var centreY: Double

    public init(zoom: Double, centreX: Double = 0.5, centreY: Double = 0.5) {
        (self.zoom, self.centreX, self.centreY) = (zoom, centreX, centreY)
    }

    /// The part of the zoom-1 picture shown.
    public var crop: FractionalBox { FractionalBox(centreX: centreX, centreY: centreY, width: 1 / zoom, height: 1 / zoom) }

    /// This framing with its crop moved the least it must to lie inside `extent` (the part of
    /// the zoom-1 picture the lens sees); centred on the extent where the crop is larger.
    public func kept(inside extent: FractionalBox) -> Framing {
        func clamp(_ centre: Double, _ start: Double, _ length: Double) -> Double {
            let half = 0.5 / zoom
            let low = start + half, high = start + length - half
            return low > high ? start + length / 2 : min(max(centre, low), high)
        }
        return Framing(zoom: zoom, centreX: clamp(centreX, extent.x, extent.width),
                       centreY: clamp(centreY, extent.y, extent.height))
    }

    /// The whole zoom-1 picture.
    public static let wholePicture = FractionalBox(x: 0, y: 0, width: 1, height: 1)

    /// The crop in the pixels of a `width` × `height` frame that shows the middle
    /// 1/`frameZoom` of the zoom-1 picture (the camera's own zoom, a longer or wider lens);
    /// nil where that is the whole frame.
    public func crop(inFrameWidth width: Int, height: Int, frameZoom: Double) -> PixelRect? {
        let side = 1 / max(frameZoom, 0.01)
        let box = crop.within(FractionalBox(centreX: 0.5, centreY: 0.5, width: side, height: side))
        guard box.width < 0.999 || box.height < 0.999 || abs(box.x) > 0.001 || abs(box.y) > 0.001 else { return nil }
        let w = min(max(Int((box.width * Double(width)).rounded()), 2), width)
        let h = min(max(Int((box.height * Double(height)).rounded()), 2), height)
        let x = min(max(Int((box.x * Double(width)).rounded()), 0), width - w)
        let y = min(max(Int((box.y * Double(height)).rounded()), 0), height - h)
        return PixelRect(x: x, y: y, width: w, height: h)
    }

    /// The largest zoom about the picture's middle whose view still holds this crop: as far
    /// as the camera's own zoom (which magnifies the middle) may go.
    public var centredZoomHoldingCrop: Double {
        let reach = max(abs(centreX - 0.5), abs(centreY - 0.5)) + 0.5 / zoom
        return min(zoom, 0.5 / max(reach, 1e-9))
    }
}
