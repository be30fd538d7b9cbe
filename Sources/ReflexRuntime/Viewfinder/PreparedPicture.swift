import ReflexCore
import ReflexUI

/// A frame's picture drawn in the display's back buffer and waiting for its latch, where the
/// marks and the interface are laid over it and it is queued: what the loop keeps of it.
struct PreparedPicture {
    /// When its drawing began (monotonic seconds), and what the drawing cost.
    let startedAt: Double
    let seconds: Double
    let runningSeconds: Double
    let allocations: Int
    /// The vblank it is made for, and when its latch is due (nil: no vblank to aim at,
    /// latched as soon as drawn).
    let vblank: Double?
    let latchAt: Double?
    /// The painter's newest request when it began: layers this frame may wait for.
    let generationAsked: Int
    /// What it was drawn for: the marks go where the picture went.
    let layout: ScreenLayout
    let framing: Framing
}
