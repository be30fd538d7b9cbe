import ReflexCore
import ReflexSystem

/// Input events another thread of this process posts to the realtime loop (`reflex bench
/// soak` presses and turns as a photographer would, where the machine has no /dev/uinput),
/// each at its own time, taken by the loop's thread at its next turn. One posting thread;
/// 64 waiting at most. Neither side waits or allocates.
struct PostedInputs {
    private struct Posted {
        let event: InputEvent
        let time: Double
    }

    private let queue = HandOffQueue<Posted>(capacity: 64)

    /// False if 64 are waiting already.
    func post(_ event: InputEvent, at time: Double) -> Bool {
        queue.send(Posted(event: event, time: time))
    }

    /// Each event posted, oldest first, with its time.
    func takeEach(_ body: (InputEvent, Double) -> Void) {
        while let posted = queue.receive() { body(posted.event, posted.time) }
    }
}
