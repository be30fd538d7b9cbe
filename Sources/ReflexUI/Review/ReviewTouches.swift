import ReflexCore

/// Review's fingers turned into gestures: a tap, a double tap, a swipe to another item, a
/// one-finger pan of a zoomed photo, a two-finger pinch. Pure: events in, gestures out, with
/// their own times.
public struct ReviewTouches: Sendable {
    public enum Gesture: Sendable, Equatable {
        case tap(x: Double, y: Double)
        /// The second of two taps close in time and place (the first came as a tap).
        case doubleTap(x: Double, y: Double)
        /// Older (1, a swipe to the left) or newer (-1).
        case swipe(Int)
        /// One finger moved the photo by this many screen pixels.
        case pan(dx: Double, dy: Double)
        /// Two fingers moved apart by `factor` since the last, about their middle.
        case pinch(factor: Double, x: Double, y: Double)
    }

    private struct Finger: Sendable {
        var slot: Int
        var startX: Double, startY: Double
        var x: Double, y: Double
        /// Moved beyond a tap's slop, or part of a pinch: no tap.
        var moved = false
        var pinched = false

        /// To (`x`, `y`): how far it went since the last.
        mutating func move(toX x: Double, y: Double, slop: Double) -> (dx: Double, dy: Double) {
            defer { (self.x, self.y) = (x, y) }
            if abs(x - startX) > slop || abs(y - startY) > slop { moved = true }
            return (x - self.x, y - self.y)
        }
    }

    private let swipeDistance: Double
    private let tapSlop: Double
    private var first: Finger?
    private var second: Finger?
    private var pinchDistance = 0.0
    private var lastTap: (time: Double, x: Double, y: Double)?

    public init(swipeDistance: Double, tapSlop: Double) {
        (self.swipeDistance, self.tapSlop) = (swipeDistance, tapSlop)
    }

    /// `panning`: a finger moves a zoomed photo rather than swiping to another.
    public mutating func feed(_ event: InputEvent, at now: Double, panning: Bool) -> Gesture? {
        switch event {
        case .touchDown(let slot, let x, let y):
            let finger = Finger(slot: slot, startX: x, startY: y, x: x, y: y)
            if first == nil { first = finger } else if second == nil {
                second = finger
                first!.pinched = true
                second!.pinched = true
                pinchDistance = distance()
            }
        case .touchMotion(let slot, let x, let y):
            if first?.slot == slot {
                let (dx, dy) = first!.move(toX: x, y: y, slop: tapSlop)
                return moved(first!, dx: dx, dy: dy, panning: panning)
            }
            if second?.slot == slot {
                let (dx, dy) = second!.move(toX: x, y: y, slop: tapSlop)
                return moved(second!, dx: dx, dy: dy, panning: panning)
            }
        case .touchUp(let slot):
            guard let finger = take(slot) else { break }
            return lifted(finger, at: now, panning: panning)
        case .touchCancel(let slot):
            _ = take(slot)
        case .wheel, .key:
            break
        }
        return nil
    }

    /// What a finger's move was: a pinch's step with two down, else (zoomed in) a pan.
    private mutating func moved(_ finger: Finger, dx: Double, dy: Double, panning: Bool) -> Gesture? {
        if first != nil && second != nil {
            let now = distance()
            defer { pinchDistance = now }
            guard pinchDistance > 0, now > 0 else { return nil }
            return .pinch(factor: now / pinchDistance, x: (first!.x + second!.x) / 2, y: (first!.y + second!.y) / 2)
        }
        return panning && finger.moved && !finger.pinched ? .pan(dx: dx, dy: dy) : nil
    }

    private mutating func lifted(_ finger: Finger, at now: Double, panning: Bool) -> Gesture? {
        guard !finger.pinched else { return nil }
        let (dx, dy) = (finger.x - finger.startX, finger.y - finger.startY)
        if !panning && abs(dx) >= swipeDistance && abs(dx) > abs(dy) * 2 { return .swipe(dx < 0 ? 1 : -1) }
        guard !finger.moved else { return nil }
        if let last = lastTap, now - last.time <= InterfaceController.doubleTapInterval,
           abs(finger.startX - last.x) <= tapSlop * 3, abs(finger.startY - last.y) <= tapSlop * 3 {
            lastTap = nil
            return .doubleTap(x: finger.startX, y: finger.startY)
        }
        lastTap = (now, finger.startX, finger.startY)
        return .tap(x: finger.startX, y: finger.startY)
    }

    /// The finger on `slot`, no longer down (the other, if any, becomes the first).
    private mutating func take(_ slot: Int) -> Finger? {
        if first?.slot == slot {
            defer { (first, second) = (second, nil) }
            return first
        }
        if second?.slot == slot {
            defer { second = nil }
            return second
        }
        return nil
    }

    private func distance() -> Double {
        guard let first, let second else { return 0 }
        return ((first.x - second.x) * (first.x - second.x) + (first.y - second.y) * (first.y - second.y)).squareRoot()
    }
}
