/// One thing the photographer did, in the picture's own (upright) pixels.
public enum InputEvent: Sendable, Equatable {
    case touchDown(slot: Int, x: Double, y: Double)
    case touchMotion(slot: Int, x: Double, y: Double)
    case touchUp(slot: Int)
    /// A rotary encoder turned: `v120` units (120 a detent, positive clockwise), from the
    /// `wheel`-th wheel device found (0 the first).
    case wheel(wheel: Int, v120: Int)
    case key(code: UInt32, pressed: Bool)
}
