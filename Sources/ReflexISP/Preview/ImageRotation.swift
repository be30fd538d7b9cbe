import ReflexCore

/// Turning a whole XRGB image by quarter turns, for panels mounted sideways or upside down.
extension PanelRotation {
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
