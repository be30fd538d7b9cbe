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
    public var crop: FrameBox { FrameBox(centreX: centreX, centreY: centreY, width: 1 / zoom, height: 1 / zoom) }

    public var isCentred: Bool { abs(centreX - 0.5) < 1e-9 && abs(centreY - 0.5) < 1e-9 }

    /// This framing with its crop moved the least it must to lie inside `extent` (the part of
    /// the zoom-1 picture the lens sees); centred on the extent where the crop is larger.
    public func kept(inside extent: FrameBox) -> Framing {
        func clamp(_ centre: Double, _ start: Double, _ length: Double) -> Double {
            let half = 0.5 / zoom
            let low = start + half, high = start + length - half
            return low > high ? start + length / 2 : min(max(centre, low), high)
        }
        return Framing(zoom: zoom, centreX: clamp(centreX, extent.x, extent.width),
                       centreY: clamp(centreY, extent.y, extent.height))
    }

    /// The whole zoom-1 picture.
    public static let wholePicture = FrameBox(x: 0, y: 0, width: 1, height: 1)
}
