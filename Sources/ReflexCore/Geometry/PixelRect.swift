/// An integer rectangle (pixels).
public struct PixelRect: Sendable, Equatable {
    public var x: Int, y: Int, width: Int, height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }

    /// The centre `scale` (0…1) of a `width` × `height` picture: the digital zoom's crop.
    public static func centred(in width: Int, _ height: Int, scale: Double) -> PixelRect {
        let w = max(2, Int((Double(width) * scale).rounded())), h = max(2, Int((Double(height) * scale).rounded()))
        return PixelRect(x: (width - w) / 2, y: (height - h) / 2, width: w, height: h)
    }

    /// The largest rectangle of `aspect` (width/height of the source) centred in this one:
    /// the viewfinder's letterbox.
    public func fitting(sourceWidth: Int, sourceHeight: Int) -> PixelRect {
        let scale = min(Double(width) / Double(sourceWidth), Double(height) / Double(sourceHeight))
        let w = min(width, Int((Double(sourceWidth) * scale).rounded()))
        let h = min(height, Int((Double(sourceHeight) * scale).rounded()))
        return PixelRect(x: x + (width - w) / 2, y: y + (height - h) / 2, width: w, height: h)
    }
}
