import ReflexCore
import ReflexSystem

/// Input another thread of this process posts to the realtime loop, each at its own time,
/// taken by the loop's thread at its next turn: events (`reflex bench soak` presses and turns
/// as a photographer would, where the machine has no /dev/uinput) or a phone's controls (the
/// remote's thread). One posting thread each; `capacity` waiting at most. Neither side waits
/// or allocates.
struct PostedInputs<Input> {
    private struct Posted {
        let input: Input
        let time: Double
    }

    private let queue: HandOffQueue<Posted>

    init(capacity: Int) {
        queue = HandOffQueue<Posted>(capacity: capacity)
    }

    /// False if `capacity` are waiting already.
    func post(_ input: Input, at time: Double) -> Bool {
        queue.send(Posted(input: input, time: time))
    }

    /// Each input posted, oldest first, with its time.
    func takeEach(_ body: (Input, Double) -> Void) {
        while let posted = queue.receive() { body(posted.input, posted.time) }
    }
}
