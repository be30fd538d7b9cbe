import ReflexCore

/// The fingers on the panel, by slot: what each came down on, where it started and is now,
/// whether it moved past the tap's slop (a drag, not a tap), the drag it makes on a Pro dial,
/// and two fingers on the picture pinching the zoom. Kept in place, so a touch allocates
/// nothing on the realtime loop (a dictionary's first finger made its storage and its type's
/// metadata: seven allocations on the first tap).
struct TouchTracker: Sendable {
    struct Touch: Sendable {
        var target: InterfaceTarget
        var startX: Double, startY: Double
        var lastX: Double, lastY: Double
        var moved = false
        var drag: DialDragAccumulator?
    }

    /// What a finger's move did: a dial dragged (`started`: its first step of drag, which
    /// selects it; `steps` whole stops) and the zoom a pinch asks for.
    struct Motion {
        var dial: (dial: Dial, started: Bool, steps: Int)?
        var zoom: Double?
    }

    /// A finger by its slot (libinput's seat slot).
    private struct Finger: Sendable {
        let slot: Int
        var touch: Touch
    }

    /// Ten fingers at most (a panel's usual ten), each in the first free place: one more is
    /// ignored whole (`canFollow`).
    private var fingers = InlineArray<10, Finger?>(repeating: nil)

    /// Whether finger `slot` is followed if it comes down (false: ten are down already).
    func canFollow(_ slot: Int) -> Bool { place(of: slot) != nil || freePlace != nil }
    /// Two fingers on the picture: how far apart they started and the zoom then.
    private var pinch: (distance: Double, zoom: Double)?

    var isPinching: Bool { pinch != nil }

    /// A finger down on `target`. A second finger on the picture starts a pinch from `zoom`,
    /// and neither finger is then a tap.
    mutating func down(_ slot: Int, on target: InterfaceTarget, x: Double, y: Double, zoom: Double) {
        guard let place = place(of: slot) ?? freePlace else { return }
        fingers[place] = Finger(slot: slot, touch: Touch(target: target, startX: x, startY: y, lastX: x, lastY: y))
        guard target == .picture, let distance = pictureFingersApart() else { return }
        pinch = (distance, zoom)
        for index in fingers.indices where fingers[index]?.touch.target == .picture {
            fingers[index]!.touch.moved = true
        }
    }

    /// Finger `slot` moved to (`x`, `y`); `slop` in pixels. Nil for a finger not known.
    mutating func move(_ slot: Int, x: Double, y: Double, slop: Double, density: PanelDensity) -> Motion? {
        guard let place = place(of: slot), var touch = fingers[place]?.touch else { return nil }
        var motion = Motion()
        if abs(x - touch.startX) > slop || abs(y - touch.startY) > slop { touch.moved = true }
        touch.lastX = x
        if touch.target == .picture, let pinch {
            fingers[place]!.touch.lastX = x
            fingers[place]!.touch.lastY = y
            if let distance = pictureFingersApart(), pinch.distance > 0 { motion.zoom = pinch.zoom * distance / pinch.distance }
        }
        if case .dial(let dial) = touch.target, touch.moved {
            let started = touch.drag == nil
            if started {
                // The drag counts from where the finger came down, slop included.
                touch.drag = DialDragAccumulator(dial: dial, density: density)
                touch.lastY = touch.startY
            }
            motion.dial = (dial, started, touch.drag!.feed(upwardPixels: touch.lastY - y))
        }
        touch.lastY = y
        fingers[place]!.touch = touch
        return motion
    }

    /// Finger `slot` lifted or cancelled: its touch. A pinch ends with its second finger.
    mutating func lift(_ slot: Int) -> Touch? {
        let place = place(of: slot)
        let touch = place.flatMap { fingers[$0]?.touch }
        if let place { fingers[place] = nil }
        if pictureFingersApart() == nil { pinch = nil }
        return touch
    }

    /// How far apart the first two fingers on the picture are (nil: fewer than two).
    private func pictureFingersApart() -> Double? {
        var first: Touch?
        for index in fingers.indices {
            guard let touch = fingers[index]?.touch, touch.target == .picture else { continue }
            guard let a = first else { first = touch; continue }
            let dx = touch.lastX - a.lastX, dy = touch.lastY - a.lastY
            return (dx * dx + dy * dy).squareRoot()
        }
        return nil
    }

    /// Where finger `slot` is kept, if it is down.
    private func place(of slot: Int) -> Int? {
        for index in fingers.indices where fingers[index]?.slot == slot { return index }
        return nil
    }

    /// The first free place (nil: ten fingers are down).
    private var freePlace: Int? {
        for index in fingers.indices where fingers[index] == nil { return index }
        return nil
    }
}
