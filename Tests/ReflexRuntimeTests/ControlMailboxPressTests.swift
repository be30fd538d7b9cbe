import Foundation
import ReflexCore
import ReflexSystem
import Testing
@testable import ReflexRuntime

/// Another program's presses (`reflex capture`'s burst) while the sensor thread is held up:
/// a press that finds every slot taken waits for one, as a camera's burst slows while its
/// buffer is full, and is refused only once its patience is over or its sender gives up.
@Suite struct ControlMailboxPressTests {
    /// The mailbox with every remote slot taken.
    static func full() -> (ControlMailbox, [Int]) {
        let mailbox = ControlMailbox()
        var tickets: [Int] = []
        while let ticket = mailbox.requestRemoteCapture(at: 0, format: nil) { tickets.append(ticket) }
        return (mailbox, tickets)
    }

    @Test func aPressWaitsForTheSlotTheSensorThreadFrees() throws {
        let (mailbox, held) = Self.full()
        #expect(held.count == 16, "the slots")
        // The sensor thread takes one press once the waiting press is under way.
        let waiting = DispatchSemaphore(value: 0)
        let taker = Thread {
            waiting.wait()
            usleep(50_000)
            _ = mailbox.takeCaptureRequest()
        }
        taker.start()
        waiting.signal()
        let ticket = try #require(mailbox.requestRemoteCapture(at: 1.5, format: .raw, waitingUpTo: 60),
                                  "accepted once a slot was free")
        #expect(!held.contains(ticket))
        // Every press taken in order, the waiting one last with its own time and format.
        var taken: [ControlMailbox.CaptureRequest] = []
        while let request = mailbox.takeCaptureRequest() { taken.append(request) }
        #expect(taken.count == 16 && taken.last?.ticket == ticket)
        #expect(taken.last?.pressedAt == 1.5 && taken.last?.format == .raw)
    }

    @Test func aPressIsRefusedWhenItsPatienceEndsOrItsSenderGivesUp() {
        let (mailbox, _) = Self.full()
        #expect(mailbox.requestRemoteCapture(at: 0, format: nil) == nil, "no wait asked: refused at once")
        #expect(mailbox.requestRemoteCapture(at: 0, format: nil, waitingUpTo: 0.05) == nil, "no slot came")
        var asked = 0
        #expect(mailbox.requestRemoteCapture(at: 0, format: nil, waitingUpTo: 60, giveUp: { asked += 1; return asked > 3 }) == nil,
                "the sender stopped waiting (the sensor stopped streaming)")
    }
}
