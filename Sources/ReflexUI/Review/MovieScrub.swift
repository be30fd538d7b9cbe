import ReflexCore

/// A finger on a movie's time bar: put down, it seeks there; moved along, the movie follows
/// it (a seek each tenth of a second crossed, not each touch event); lifted, it lets go. The
/// finger's events are the bar's alone, so a drag along it is never taken for a swipe.
struct MovieScrub: Sendable {
    private var slot: Int?
    private var lastTenths: Int?

    /// What `event` did: `consumed` when it was the bar's finger's, with the seconds to seek
    /// to when they changed. `bar` is the time bar, `reach` how far from its middle line a
    /// finger still takes it, `duration` the movie's length (nil: no bar on screen).
    mutating func feed(_ event: InputEvent, bar: PixelRect, reach: Int, duration: Double?) -> (consumed: Bool, seconds: Double?) {
        switch event {
        case .touchDown(let slot, let x, let y):
            guard self.slot == nil, let duration, bar.width > 0, x >= Double(bar.x), x < Double(bar.x + bar.width),
                  abs(y - Double(bar.y) - Double(bar.height) / 2) <= Double(reach) else { return (false, nil) }
            self.slot = slot
            lastTenths = nil
            return (true, seconds(atX: x, bar: bar, duration: duration))
        case .touchMotion(let slot, let x, _) where slot == self.slot:
            guard let duration else { return (true, nil) }
            return (true, seconds(atX: x, bar: bar, duration: duration))
        case .touchUp(let slot) where slot == self.slot, .touchCancel(let slot) where slot == self.slot:
            self.slot = nil
            return (true, nil)
        default:
            return (false, nil)
        }
    }

    /// The time under `x` on the bar (clamped to it), nil when it is the tenth sent last.
    private mutating func seconds(atX x: Double, bar: PixelRect, duration: Double) -> Double? {
        let fraction = min(max((x - Double(bar.x)) / Double(bar.width), 0), 1)
        let tenths = Int(fraction * duration * 10)
        guard tenths != lastTenths else { return nil }
        lastTenths = tenths
        return Double(tenths) / 10
    }
}
