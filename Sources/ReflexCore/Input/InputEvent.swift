/// One thing the photographer did, in the picture's own (upright) pixels.
public enum InputEvent: Sendable, Equatable {
    case touchDown(slot: Int, x: Double, y: Double)
    case touchMotion(slot: Int, x: Double, y: Double)
    case touchUp(slot: Int)
    /// The touch was taken away (the device went, or a palm was detected): not a tap.
    case touchCancel(slot: Int)
    /// A rotary encoder turned: `v120` units (120 a detent, positive clockwise), on the
    /// board's encoder `wheel` (its number in BoardControls.encoders; -1: a wheel the board
    /// does not name, which turns the selected dial). A push of it comes as a key.
    case wheel(wheel: Int, v120: Int)
    case key(code: UInt32, pressed: Bool)
}
