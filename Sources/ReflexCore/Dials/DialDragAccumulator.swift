/// Turns a drag on a dial into whole steps: the distance accumulates, each threshold crossed
/// is one step and the remainder carries over, so slow and fast drags give the same total.
public struct DialDragAccumulator: Sendable, Equatable {
    public let thresholdPixels: Double
    public private(set) var pendingPixels = 0.0

    public init(dial: Dial, density: PanelDensity) {
        thresholdPixels = density.pixels(fromPoints: dial.dragThresholdPoints)
    }

    /// Feed the finger's movement since the last event, positive = up the screen.
    /// Returns the steps to take: positive = up, negative = down.
    public mutating func feed(upwardPixels: Double) -> Int {
        pendingPixels += upwardPixels
        let steps = (pendingPixels / thresholdPixels).rounded(.towardZero)
        pendingPixels -= steps * thresholdPixels
        return Int(steps)
    }

    /// A finger lifted: a part-step is forgotten, not carried into the next drag.
    public mutating func reset() { pendingPixels = 0 }
}
