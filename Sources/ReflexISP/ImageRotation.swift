/// Turning a whole XRGB image by quarter turns, for panels mounted sideways or upside down.
public enum PanelRotation: Int, Sendable, CaseIterable {
    case none = 0, clockwise90 = 90, upsideDown = 180, clockwise270 = 270

    /// A 90° or 270° turn swaps width and height.
    public var swapsAxes: Bool { self == .clockwise90 || self == .clockwise270 }

    /// Where the logical pixel (x, y) of a `width` × `height` picture lands on the panel.
    public func panelPosition(x: Int, y: Int, width: Int, height: Int) -> (x: Int, y: Int) {
        switch self {
        case .none: (x, y)
        case .clockwise90: (height - 1 - y, x)
        case .upsideDown: (width - 1 - x, height - 1 - y)
        case .clockwise270: (y, width - 1 - x)
        }
    }

    /// The inverse, for touches: the point of the upright `width` × `height` picture under the
    /// panel's point (continuous coordinates, 0…width along x).
    public func uprightPosition(panelX px: Double, panelY py: Double, width: Int, height: Int) -> (x: Double, y: Double) {
        let w = Double(width), h = Double(height)
        switch self {
        case .none: return (px, py)
        case .clockwise90: return (py, h - px)
        case .upsideDown: return (w - px, h - py)
        case .clockwise270: return (w - py, px)
        }
    }

    /// Copies a `width` × `height` picture onto the panel's buffer turned by this rotation
    /// (the panel's buffer is `height` × `width` for a quarter turn).
    public func copy(_ source: UnsafePointer<UInt32>, width: Int, height: Int, sourceStride: Int,
                     into panel: UnsafeMutablePointer<UInt32>, panelStride: Int) {
        switch self {
        case .none:
            for y in 0..<height { (panel + y * panelStride).update(from: source + y * sourceStride, count: width) }
        case .upsideDown:
            for y in 0..<height {
                let from = source + y * sourceStride, to = panel + (height - 1 - y) * panelStride + (width - 1)
                for x in 0..<width { (to - x).pointee = from[x] }
            }
        case .clockwise90, .clockwise270:
            // In 16-row bands, so each panel row is written in runs that stay in cache.
            let band = 16
            for top in stride(from: 0, to: height, by: band) {
                let bottom = min(top + band, height)
                for x in 0..<width {
                    let column = self == .clockwise90 ? x : width - 1 - x
                    let to = panel + column * panelStride
                    for y in top..<bottom {
                        let panelX = self == .clockwise90 ? height - 1 - y : y
                        to[panelX] = source[y * sourceStride + x]
                    }
                }
            }
        }
    }
}
