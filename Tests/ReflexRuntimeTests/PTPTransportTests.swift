import Foundation
import ReflexCore
import ReflexRuntime
import ReflexSystem
import ReflexTestSupport
import Synchronization
import Testing

/// PTP over the still-image class's pipes (issue 55): the transport on socket pairs that keep
/// each write one message, as FunctionFS keeps each one a USB transfer. A host's commands
/// answered, a file streamed from the card in whole packets but for the last, a bad host
/// refused while the next command still works, and events on the interrupt pipe.
@Suite struct PTPTransportTests {
    static let packet = 512

    /// A card folder with real files, listed as the review catalogue lists it.
    final class Card: PTPCamera, @unchecked Sendable {
        let folder = TemporaryFolder()
        let manufacturer = "Reflex", model = "Reflex test", version = "0", serialNumber = "1"
        let isTethered = true
        let settings = CameraSettings()
        let fNumber: Double? = nil, batteryPercent: Int? = nil
        private let names = Mutex<[String]>([])

        func add(_ name: String, bytes: [UInt8]) throws {
            try FileManager.default.createDirectory(atPath: folder.file("DCIM/100REFLX"), withIntermediateDirectories: true)
            _ = try folder.write(bytes, to: "DCIM/100REFLX/" + name)
            names.withLock { $0.append(name) }
        }

        func cardItems() -> [ReviewItem]? {
            let listed = names.withLock { $0 }.map { name -> (name: String, bytes: Int64, modified: Int64, readOnly: Bool) in
                let size = (try? FileManager.default.attributesOfItem(atPath: folder.file("DCIM/100REFLX/" + name))[.size] as? Int) ?? 0
                return (name, Int64(size), 0, false)
            }
            return ReviewCatalog.items([ReviewCatalog.Listing(folder: "100REFLX", files: listed)])
        }
        func storage() -> PTPStorageInfo? {
            PTPStorageInfo(capacityBytes: 1 << 30, freeBytes: 1 << 29, freeImages: 9, description: "", volumeLabel: "")
        }
        func path(onCard relative: String) -> String { folder.file(relative) }
        func thumbnail(onCard relative: String) -> [UInt8]? { nil }
        func delete(onCard relative: String) -> PTPResponseCode { .ok }
        func capture() -> PTPResponseCode { .ok }
        func apply(_ change: PTPSettingChange) -> PTPResponseCode { .ok }
    }

    /// The host's ends of the three pipes and the transport between them.
    final class Host {
        let transport: PTPTransport
        let bulkOut: Int32, bulkIn: Int32, interrupt: Int32
        private var cameraEnds: [Int32] = []
        var transaction: UInt32 = 0

        init(card: Card, changed: EventSignal = EventSignal(), lookEverySeconds: Double = 1) throws {
            func pair() throws -> (Int32, Int32) {
                var ends: [Int32] = [0, 0]
                guard socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
                    throw POSIXError(.EIO)
                }
                return (ends[0], ends[1])
            }
            let out = try pair(), into = try pair(), events = try pair()
            (bulkOut, bulkIn, interrupt) = (out.0, into.0, events.0)
            cameraEnds = [out.1, into.1, events.1]
            transport = PTPTransport(pipes: PTPPipes(bulkOut: out.1, bulkIn: into.1, interruptIn: events.1, packetSize: packet,
                                                     endsOnEmptyRead: true),
                                     camera: card, changed: changed, lookEverySeconds: lookEverySeconds, log: { _ in })
        }

        func start() -> Bool { transport.start() }

        func stop() {
            // (The host going away ends the camera's reads, as an unbound gadget does.)
            shutdown(bulkOut, Int32(SHUT_RDWR))
            shutdown(bulkIn, Int32(SHUT_RDWR))
            shutdown(interrupt, Int32(SHUT_RDWR))
            transport.stop()
            for end in cameraEnds + [bulkOut, bulkIn, interrupt] { close(end) }
        }

        /// `bytes` as the host's controller sends them: in transfers no longer than the
        /// camera's reads (64 KiB), the rest following in the next.
        func send(_ bytes: [UInt8]) {
            var start = 0
            repeat {
                let end = min(bytes.count, start + (64 << 10))
                _ = bytes[start..<end].withUnsafeBytes { Foundation.send(bulkOut, $0.baseAddress, $0.count, 0) }
                start = end
            } while start < bytes.count
        }

        /// One transfer the camera wrote (nil after 10 s without one).
        func transfer(from descriptor: Int32? = nil) -> [UInt8]? {
            var ready = pollfd(fd: descriptor ?? bulkIn, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 10_000) > 0 else { return nil }
            var buffer = [UInt8](repeating: 0, count: 1 << 20)
            let got = buffer.withUnsafeMutableBytes { recv(descriptor ?? bulkIn, $0.baseAddress, $0.count, 0) }
            return got >= 0 ? Array(buffer[..<got]) : nil
        }

        /// A command's data phase (its transfers, each kept) and its response.
        func ask(_ operation: PTPOperation, _ parameters: [UInt32] = [], data: [UInt8]? = nil)
            -> (data: [UInt8], transfers: [Int], response: PTPContainer?) {
            defer { transaction += 1 }
            send(PTPContainer(kind: .command, code: operation.rawValue, transactionID: transaction, parameters: parameters).encoded())
            if let data { send(PTPContainer(kind: .data, code: operation.rawValue, transactionID: transaction, payload: data).encoded()) }
            var payload: [UInt8] = [], transfers: [Int] = []
            while let bytes = transfer() {
                if transfers.isEmpty, bytes.count >= 12, PTPContainer.Header(bytes).kind == PTPContainer.Kind.response.rawValue {
                    return ([], [], try? PTPContainer.parse(bytes).get())
                }
                transfers.append(bytes.count)
                payload += bytes
                let declared = Int(PTPContainer.Header(payload).length)
                // The data phase ends at its declared length, or at a short transfer.
                if payload.count >= declared || bytes.count % packet != 0 {
                    if payload.count % packet == 0 && payload.count == declared { transfers.append(transfer()?.count ?? -1) }
                    return (Array(payload.dropFirst(12)), transfers, transfer().flatMap { try? PTPContainer.parse($0).get() })
                }
            }
            return (payload, transfers, nil)
        }
    }

    static func started() throws -> (Card, Host) {
        let card = Card()
        let host = try Host(card: card)
        #expect(host.start())
        return (card, host)
    }

    @Test func aHostOpensASessionListsTheCardAndGetsAFileWhole() throws {
        let (card, host) = try Self.started()
        defer { host.stop() }
        let photo = (0..<1_500_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
        try card.add("RFLX0001.DNG", bytes: photo)
        let info = host.ask(.getDeviceInfo)
        #expect(info.response?.code == PTPResponseCode.ok.rawValue && (try? PTPDeviceInfo.decode(info.data))?.manufacturer == "Reflex")
        host.transaction = 0
        #expect(host.ask(.openSession, [1]).response?.code == PTPResponseCode.ok.rawValue)
        host.transport.changed.signal()
        let handles = host.ask(.getObjectHandles, [0xFFFF_FFFF, 0, 0])
        var reader = PTPDataReader(handles.data)
        let all = try reader.uint32Array()
        #expect(all.count == 3, "DCIM, 100REFLX, the photo")
        let file = host.ask(.getObject, [all[2]])
        #expect(file.response?.code == PTPResponseCode.ok.rawValue)
        #expect(file.data == photo, "every byte, in order")
        #expect(file.transfers.dropLast().allSatisfy { $0 % Self.packet == 0 }, "whole packets but for the last: \(file.transfers)")
        let part = host.ask(.getPartialObject, [all[2], 1_000_000, 600_000])
        #expect(part.data == Array(photo[1_000_000...]) && part.response?.parameters == [500_000])
    }

    @Test func aBadHostIsRefusedAndTheNextCommandStillWorks() throws {
        let (card, host) = try Self.started()
        defer { host.stop() }
        try card.add("RFLX0001.JPG", bytes: [0xFF, 0xD8, 0xFF, 0xD9])
        _ = host.ask(.openSession, [1])
        host.send([1, 2, 3])
        host.send([0x40, 0, 0, 0, 1, 0, 0x04, 0x10, 9, 0, 0, 0])  // a command claiming 64 bytes
        let refused = host.transfer().flatMap { try? PTPContainer.parse($0).get() }
        #expect(refused?.code == PTPResponseCode.generalError.rawValue && refused?.transactionID == 9)
        host.transaction = 2
        let written = host.ask(.sendObject, [], data: [UInt8](repeating: 7, count: 200_000))
        #expect(written.response?.code == PTPResponseCode.storeReadOnly.rawValue, "the card is the camera's")
        #expect(host.ask(.getStorageIDs).response?.code == PTPResponseCode.ok.rawValue, "and the camera answers on")
        #expect(host.transport.malformedContainers == 2)
    }

    @Test func aFileGoneFromTheCardIsAnIncompleteTransfer() throws {
        let (card, host) = try Self.started()
        defer { host.stop() }
        try card.add("RFLX0001.JPG", bytes: [UInt8](repeating: 1, count: 5000))
        _ = host.ask(.openSession, [1])
        host.transport.changed.signal()
        var reader = PTPDataReader(host.ask(.getObjectHandles, [0xFFFF_FFFF, 0, 0]).data)
        let handle = try reader.uint32Array().last!
        try FileManager.default.removeItem(atPath: card.folder.file("DCIM/100REFLX/RFLX0001.JPG"))
        let file = host.ask(.getObject, [handle])
        #expect(file.data.isEmpty && file.response?.code == PTPResponseCode.incompleteTransfer.rawValue)
    }

    @Test func aPhotoTakenIsAnEventOnTheInterruptPipe() throws {
        let (card, host) = try Self.started()
        defer { host.stop() }
        try card.add("RFLX0001.JPG", bytes: [1])
        _ = host.ask(.openSession, [1])
        host.transport.changed.signal()
        _ = host.transfer(from: host.interrupt)  // StoreAdded, if the card came after the start
        try card.add("RFLX0002.JPG", bytes: [2])
        host.transport.changed.signal()
        var event: PTPContainer?
        for _ in 0..<3 where event?.code != PTPEventCode.objectAdded.rawValue {
            event = host.transfer(from: host.interrupt).flatMap { try? PTPContainer.parse($0).get() }
        }
        #expect(event?.kind == .event && event?.code == PTPEventCode.objectAdded.rawValue)
    }

    /// A photo saved is heard at once: the photo thread's report signals the event thread
    /// (`StatusBoard.photosChanged`), which otherwise looks only now and then (here once an
    /// hour), so a tethered computer has the photo as soon as it is on the card.
    @Test func aPhotoSavedIsAnnouncedAtOnceNotAtTheNextLook() throws {
        let card = Card(), status = StatusBoard()
        let host = try Host(card: card, changed: status.photosChanged, lookEverySeconds: 3600)
        try card.add("RFLX0001.JPG", bytes: [1])
        #expect(host.start())
        defer { host.stop() }
        _ = host.ask(.openSession, [1])
        try card.add("RFLX0002.JPG", bytes: [2])
        status.postPhoto(PhotoReport())
        var events: [PTPContainer] = []
        while events.last?.code != PTPEventCode.objectAdded.rawValue,
              let event = host.transfer(from: host.interrupt).flatMap({ try? PTPContainer.parse($0).get() }) {
            events.append(event)
        }
        try #require(events.last?.code == PTPEventCode.objectAdded.rawValue, "\(events.map(\.code))")
        let info = host.ask(.getObjectInfo, [events.last!.parameters[0]])
        #expect((try? PTPObjectInfo.decode(info.data))?.fileName == "RFLX0002.JPG")
    }
}
