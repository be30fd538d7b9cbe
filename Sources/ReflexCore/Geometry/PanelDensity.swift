/// The panel's physical density, which turns the seeds' points into pixels.
public struct PanelDensity: Sendable, Equatable {
    /// The seeds' point: 1/160 inch ("180 pt ≈ 180 px at 160 dpi").
    public static let pointsPerInch = 160.0
    public let dotsPerInch: Double

    public init(dotsPerInch: Double) {
        precondition(dotsPerInch > 0, "a panel has a positive dpi")
        self.dotsPerInch = dotsPerInch
    }

    public var pixelsPerPoint: Double { dotsPerInch / PanelDensity.pointsPerInch }

    public func pixels(fromPoints points: Double) -> Double { points * pixelsPerPoint }

    /// Densities a camera's panel or a monitor can have; outside them the size is a
    /// placeholder (EDIDs of projectors and virtual panels give one), not a measure.
    public static let plausibleDotsPerInch = 40.0...1200.0

    /// The density of a panel from its mode and its physical size as the kernel reports it
    /// (a DRM connector's mm, from the EDID or the device tree): nil when the size is
    /// missing, implausible, or its two axes disagree by more than a quarter (a mode of
    /// another shape than the panel, stretched over it by a monitor).
    public static func measured(widthPixels: Int, heightPixels: Int,
                                widthMillimetres: Int, heightMillimetres: Int) -> PanelDensity? {
        guard widthPixels > 0, heightPixels > 0, widthMillimetres > 0, heightMillimetres > 0 else { return nil }
        func agree(_ w: Int, _ h: Int) -> Bool {
            let across = Double(widthPixels) / Double(w) * 25.4, down = Double(heightPixels) / Double(h) * 25.4
            return max(across, down) / min(across, down) <= 1.25
        }
        // (A portrait panel's device tree may give its size the other way round from its mode.)
        guard agree(widthMillimetres, heightMillimetres) || agree(heightMillimetres, widthMillimetres) else { return nil }
        // The diagonal's density: the same whichever way the panel is turned.
        let pixels = (Double(widthPixels * widthPixels + heightPixels * heightPixels)).squareRoot()
        let millimetres = (Double(widthMillimetres * widthMillimetres + heightMillimetres * heightMillimetres)).squareRoot()
        let dpi = pixels / millimetres * 25.4
        return plausibleDotsPerInch.contains(dpi) ? PanelDensity(dotsPerInch: dpi) : nil
    }
}
