import Foundation
import ReflexSystem
import Testing

@Suite struct TripleBufferTests {
    /// One writer, one reader on two real threads (not the cooperative pool, which may have
    /// one thread on a small machine): the reader only ever sees whole values, and always a
    /// newer one than before.
    @Test func theReaderSeesWholeValuesInOrder() {
        struct Pair: Sendable { var a: Int; var b: Int }
        final class Shared: @unchecked Sendable {
            let buffer = TripleBuffer { Pair(a: 0, b: 0) }
            let count = 200_000
        }
        let shared = Shared()
        let writer = Thread {
            for i in 1...shared.count { shared.buffer.publish(Pair(a: i, b: -i)) }
        }
        writer.start()
        var torn = 0, backwards = 0, last = 0
        let deadline = Date().addingTimeInterval(60)
        while last < shared.count && Date() < deadline {
            guard shared.buffer.takeNewest() else { continue }
            let value = shared.buffer.current
            if value.a != -value.b { torn += 1 }
            if value.a <= last { backwards += 1 }
            last = value.a
        }
        #expect(torn == 0)
        #expect(backwards == 0)
        #expect(last == shared.count)
    }
}
