import Foundation
import ReflexSystem
import Testing

/// The lock-free queue between two threads: in order, bounded (a full queue refuses and
/// keeps what it has), and whole across real threads.
@Suite struct HandOffQueueTests {
    @Test func elementsComeOutInOrderAndAFullQueueRefuses() {
        let queue = HandOffQueue<Int>(capacity: 3)
        #expect(queue.receive() == nil && queue.count == 0)
        #expect(queue.send(1) && queue.send(2) && queue.send(3))
        #expect(!queue.send(4), "full: refused")
        #expect(queue.count == 3)
        #expect(queue.receive() == 1 && queue.receive() == 2)
        #expect(queue.send(5), "room again")
        #expect(queue.receive() == 3 && queue.receive() == 5 && queue.receive() == nil)
    }

    @Test func aReceiverOnAnotherThreadGetsEveryElementOnce() {
        final class Shared: @unchecked Sendable {
            let queue = HandOffQueue<Int>(capacity: 64)
            let count = 50_000
        }
        let shared = Shared()
        let sender = Thread {
            var next = 1
            while next <= shared.count { if shared.queue.send(next) { next += 1 } }
        }
        sender.start()
        var expected = 1, outOfOrder = 0
        let deadline = Date().addingTimeInterval(60)
        while expected <= shared.count && Date() < deadline {
            guard let value = shared.queue.receive() else {
                shared.queue.wait(milliseconds: 10)
                continue
            }
            if value != expected { outOfOrder += 1 }
            expected = value + 1
        }
        #expect(outOfOrder == 0)
        #expect(expected == shared.count + 1, "every element arrived")
    }
}
