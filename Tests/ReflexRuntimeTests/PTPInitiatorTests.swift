import Foundation
import ReflexCore
import ReflexRuntime
import Testing

/// The computer's side of PTP (`PTPInitiator`, what `reflex bench usb` drives a camera with)
/// against the camera's own transport on socket pairs: transactions numbered as a session
/// wants them, a folder walked to a file, a 1.5 MB data phase streamed in pieces and whole,
/// a refusal thrown with its code.
@Suite struct PTPInitiatorTests {
    /// The host's bulk pipes as the initiator reads them: one transfer a read.
    final class SocketPipes: PTPHostPipes {
        let host: PTPTransportTests.Host
        init(_ host: PTPTransportTests.Host) { self.host = host }

        func send(_ bytes: [UInt8]) throws(PTPHostPipesError) { host.send(bytes) }

        func receive(into buffer: UnsafeMutableRawBufferPointer) throws(PTPHostPipesError) -> Int {
            var ready = pollfd(fd: host.bulkIn, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 10_000) > 0 else { throw PTPHostPipesError("bulk in", code: ETIMEDOUT) }
            let got = recv(host.bulkIn, buffer.baseAddress, buffer.count, 0)
            guard got >= 0 else { throw PTPHostPipesError("bulk in", code: errno) }
            return got
        }
    }

    @Test func aHostWalksTheCardToAFileAndFetchesItWhole() throws {
        let (card, host) = try PTPTransportTests.started()
        defer { host.stop() }
        let photo = (0..<1_500_000).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ $0 >> 11) }
        try card.add("RFLX0001.DNG", bytes: photo)
        try card.add("RFLX0001.JPG", bytes: [0xFF, 0xD8, 0xFF, 0xD9])
        let ptp = PTPInitiator(pipes: SocketPipes(host), readSize: 200_000)
        #expect(try PTPDeviceInfo.decode(ptp.data(.getDeviceInfo)).manufacturer == "Reflex")
        try ptp.run(.openSession, [1])
        host.transport.changed.signal()
        // Root, DCIM, its folder: one level at a time, as a host lists a card.
        var level = PTPDataReader(try ptp.data(.getObjectHandles, [0xFFFF_FFFF, 0, 0xFFFF_FFFF]))
        var handles = try level.uint32Array()
        var names: [String] = []
        while let handle = handles.first {
            handles.removeFirst()
            let info = try PTPObjectInfo.decode(try ptp.data(.getObjectInfo, [handle]))
            names.append(info.fileName)
            if info.format == .association {
                var below = PTPDataReader(try ptp.data(.getObjectHandles, [0xFFFF_FFFF, 0, handle]))
                handles += try below.uint32Array()
            }
            guard info.fileName == "RFLX0001.DNG" else { continue }
            #expect(info.size == UInt64(photo.count) && info.format == .dng)
            var pieces = 0
            var fetched: [UInt8] = []
            try ptp.run(.getObject, [handle]) { piece in
                pieces += 1
                fetched.append(contentsOf: piece)
            }
            #expect(fetched.count == photo.count && fetched == photo, "every byte, in order")
            #expect(pieces > 1, "a data phase longer than a read comes in pieces")
        }
        #expect(names == ["DCIM", "100REFLX", "RFLX0001.DNG", "RFLX0001.JPG"], "\(names)")
        try ptp.run(.closeSession)
    }

    @Test func aRefusalIsThrownWithItsCodeAndTheSessionGoesOn() throws {
        let (card, host) = try PTPTransportTests.started()
        defer { host.stop() }
        try card.add("RFLX0001.JPG", bytes: [0xFF, 0xD8, 0xFF, 0xD9])
        let ptp = PTPInitiator(pipes: SocketPipes(host))
        #expect(throws: PTPInitiator.Failure.refused(operation: PTPOperation.getObject.rawValue,
                                                     code: PTPResponseCode.sessionNotOpen.rawValue)) {
            try ptp.run(.getObject, [1])
        }
        try ptp.run(.openSession, [7])
        #expect(throws: PTPInitiator.Failure.refused(operation: PTPOperation.getObject.rawValue,
                                                     code: PTPResponseCode.invalidObjectHandle.rawValue)) {
            try ptp.run(.getObject, [0x7777])
        }
        var reader = PTPDataReader(try ptp.data(.getStorageIDs))
        #expect(try reader.uint32Array() == [0x0001_0001], "the session answers on")
    }
}
