import ReflexCore

/// Enhanced RAW's exposure (HDR+'s rule): the sensor is underexposed by as much as the
/// scene's brightest parts need to stay below clipping, at most `mostStops`, and the picture
/// brightened by the same digital gain, so the viewfinder and the files look as in the other
/// formats while the raw keeps the highlights; the merge then takes back the shadows' noise.
///
/// It moves a third of a stop at a metering: darker while anything clips (two thirds when
/// much does), brighter only when nothing is within a stop of clipping, and otherwise holds,
/// so a scene between the two never makes it swing. Pure: fed each metered frame's figures.
public struct HighlightHeadroom: Sendable, Equatable {
    public static let mostStops = 2.0
    public static let step = 1.0 / 3
    /// A share of clipped tiles above this is clipping (a few hot pixels are not).
    public static let clippedAbove = 0.001
    /// Clipping this widespread darkens by two steps at once.
    public static let muchClippedAbove = 0.02
    /// Nothing near clipping: a share of tiles within a stop of it below this.
    public static let nearBelow = 0.001

    /// The underexposure now, in stops (0 to `mostStops`).
    public private(set) var stops = 0.0

    public init() {}

    /// The frame's share of clipped tiles and of tiles within a stop of clipping, as the
    /// sensor took it (underexposed by `stops` already); returns the underexposure to use next.
    @discardableResult
    public mutating func update(clippedFraction: Double, nearClippingFraction: Double) -> Double {
        if clippedFraction > HighlightHeadroom.clippedAbove {
            let steps = clippedFraction > HighlightHeadroom.muchClippedAbove ? 2.0 : 1.0
            stops = min(stops + steps * HighlightHeadroom.step, HighlightHeadroom.mostStops)
        } else if nearClippingFraction < HighlightHeadroom.nearBelow {
            stops = max(stops - HighlightHeadroom.step, 0)
        }
        // (Kept on whole thirds: repeated additions drift.)
        stops = (stops * 3).rounded() / 3
        return stops
    }
}
