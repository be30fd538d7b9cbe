import ReflexCore
import ReflexISP

/// Tap to focus, on the sensor thread: Reflex's own contrast autofocus (ContrastAutofocus)
/// at the spot tapped in Auto, driven frame by frame. The lens is moved to each position of
/// the sweep; the frames of the camera's control delay go by while it gets there; the spot's
/// contrast is measured in the next raw frame (FocusMeasure); and so on until the lens sits
/// at the peak. No allocation a frame: the sweep made its room when it started.
struct TapFocus {
    private(set) var sweep: ContrastAutofocus
    /// The spot, in the frame's pixels.
    let box: PixelRect
    let startedAt: Double
    /// The first frame taken with the lens where it was last sent.
    private var measureFrom: UInt32

    /// A sweep from the lens's position `lens`; move the lens to `target` after frame `sequence`.
    init(box: PixelRect, lens: FocusPosition, afterFrame sequence: UInt32, delayFrames: Int, now: Double) {
        sweep = ContrastAutofocus(from: lens.value)
        self.box = box
        startedAt = now
        measureFrom = sequence &+ UInt32(delayFrames + 1)
    }

    var target: FocusPosition { FocusPosition(sweep.target) }
    var isDone: Bool { sweep.isDone }

    /// Measures `frame` if the lens had reached its place for it; returns where the lens goes
    /// next (after the last measurement, the peak), nil when this frame was not one to measure.
    mutating func take(_ frame: UnsafeRawPointer, sequence: UInt32, layout: RawLayout, blackLevel: Int,
                       delayFrames: Int) -> FocusPosition? {
        // (Sequence numbers wrap: "at or after" as a signed distance.)
        guard !sweep.isDone, Int32(bitPattern: sequence &- measureFrom) >= 0 else { return nil }
        sweep.measured(FocusMeasure.contrast(frame, layout: layout, box: box, blackLevel: blackLevel))
        measureFrom = sequence &+ UInt32(delayFrames + 1)
        return target
    }
}
