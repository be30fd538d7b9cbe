/// How a panel is mounted: the upright picture is turned by quarter turns onto it.
public enum PanelRotation: Int, Sendable, CaseIterable {
    case none = 0, clockwise90 = 90, upsideDown = 180, clockwise270 = 270

    /// A 90° or 270° turn swaps width and height.
    public var swapsAxes: Bool { self == .clockwise90 || self == .clockwise270 }

    /// For touches: the point of the upright `width` × `height` picture under the
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
}
