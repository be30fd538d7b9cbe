import ReflexSystem
import ReflexUI

/// What the camera's screen shows (its `ViewState`), published by the realtime loop whenever
/// it changes, for one reader on another thread (the remote's, which shows the HUD's values
/// on the phone). Publishing copies the state into a slot made beforehand: nothing is
/// allocated on the loop's side, nothing waits.
public final class ShownStateBoard: Sendable {
    private let states = TripleBuffer<ViewState?> { nil }

    /// From the loop's thread.
    func publish(_ state: ViewState) { states.publish(state) }

    /// The newest state shown (nil before the first); from the one reading thread.
    public func newest() -> ViewState? {
        states.takeNewest()
        return states.current
    }
}
