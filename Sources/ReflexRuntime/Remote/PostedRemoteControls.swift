import ReflexCore
import ReflexSystem

/// Controls a phone sent (the remote's one thread posts them) for the realtime loop, each at
/// the time its request came, taken by the loop's thread at its next turn. 16 waiting at
/// most; neither side waits or allocates.
struct PostedRemoteControls {
    private struct Posted {
        let control: RemoteControl
        let time: Double
    }

    private let queue = HandOffQueue<Posted>(capacity: 16)

    /// False if 16 are waiting already.
    func post(_ control: RemoteControl, at time: Double) -> Bool {
        queue.send(Posted(control: control, time: time))
    }

    func takeEach(_ body: (RemoteControl, Double) -> Void) {
        while let posted = queue.receive() { body(posted.control, posted.time) }
    }
}
